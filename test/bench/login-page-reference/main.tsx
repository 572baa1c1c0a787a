import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { referenceRoutes } from './login-form';
import '../../../src/styles.css';

// Hydrates the prerendered markup (login-reference.ts writes it into login.html) as the app's entry does: a data
// router, in a transition.
const router = createBrowserRouter(referenceRoutes);
startTransition(() => {
  hydrateRoot(
    document.getElementById('root')!,
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
});
