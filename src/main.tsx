import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { routes } from './app/routes';
import { routerBasename } from './app/router-basename';
import { afterLoadSettled } from './lib/after-load';
import { routerReady } from './app/router-ready';
import { prefetchOpenedConversation } from './app/conversation-prefetch';
import { viewerOf } from './app/route-access';
import { LiveMarker } from './app/live-marker';
import { sessionActor } from './session/session';
import './styles.css';

const session = sessionActor.getSnapshot();
// Before the router starts loading the route's code: a tab opened on a conversation asks for its messages now.
prefetchOpenedConversation(routes, window.location, routerBasename, viewerOf(session.context, session.hasTag('authenticated')));
const router = createBrowserRouter(routes, { basename: routerBasename });
const container = document.getElementById('root')!;
const app = (
  <StrictMode>
    <RouterProvider router={router} />
    <LiveMarker />
  </StrictMode>
);

// Prerendered pages (login.html, see scripts/prerender-plugin.ts) hold the markup a signed-out visitor sees.
// A signed-in visitor is redirected away, which that markup cannot match: their tab renders afresh instead.
if (container.firstElementChild && !session.hasTag('authenticated')) {
  // The route's lazy screen must be loaded first, or the first render would be the spinner, not the markup.
  // (A promise, not a top-level await: that would make the bundler split the entry into many small chunks.)
  void routerReady(router).then(() => {
    // As a transition, hydration yields to the browser every few milliseconds instead of one long blocking task.
    startTransition(() => {
      hydrateRoot(container, app);
    });
  });
} else {
  createRoot(container).render(app);
}

// Production builds only (the dev server has no worker).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  afterLoadSettled(() => void import('./app/pwa').then(({ registerServiceWorker }) => registerServiceWorker(sessionActor)));
}
