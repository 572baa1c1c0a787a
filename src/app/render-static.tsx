import './static-guest-storage';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { routes } from './routes';
import { routerBasename } from './router-basename';

/**
 * Build time only (scripts/prerender-plugin.ts): the markup of one route as a signed-out visitor first sees it,
 * for `<div id="root">`. main.tsx hydrates it with the same routes and the same tree (StrictMode, router).
 */
export async function renderRoute(path: string): Promise<string> {
  const handler = createStaticHandler(routes, { basename: routerBasename });
  // query() also resolves the matched routes' lazy modules, so the route's screen is rendered, not a spinner.
  const context = await handler.query(new Request(new URL(`${routerBasename.replace(/\/$/, '')}${path}`, 'http://prerender.invalid')));
  if (context instanceof Response) throw new Error(`prerendering ${path}: the route answered a redirect (${context.status})`);
  if (context.errors) throw new Error(`prerendering ${path}: ${JSON.stringify(context.errors)}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  // prerender (not renderToString) waits for every Suspense boundary instead of writing its fallback.
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </StrictMode>,
  );
  return new Response(prelude).text();
}
