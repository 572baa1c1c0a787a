import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { build } from 'vite';
import { referenceRoutes } from './login-page-reference/login-form';

// The login bench's reference: a bare React + router page with the sign-in form (login-page-reference/), built here
// and laid out as the app's build is (login.html prerendered with its CSS inlined, prerendered.json naming it), so
// that the real server serves it from STATIC_DIR with the same headers, compression and caching as /login. Its
// Lighthouse score and TBT are measured in the same run as /login's, runs alternated, so both see the same load.

const ROOT = path.resolve('test/bench/login-page-reference');
const STYLESHEET = /<link rel="stylesheet"[^>]*>/g;
const INLINE_STYLE = /<style>[\s\S]*?<\/style>/g;

/**
 * Builds the reference page into `outDir` (emptied first). Its login.html carries the very CSS that the app's
 * login.html in `appDir` inlines, so the two pages differ in their scripts only.
 */
export async function buildLoginReference(outDir: string, appDir: string): Promise<void> {
  await build({
    configFile: false,
    root: ROOT,
    base: '/',
    logLevel: 'warn',
    plugins: [react(), tailwindcss()],
    build: { outDir, emptyOutDir: true, target: 'es2022', modulePreload: false, reportCompressedSize: false },
  });
  // The markup of /login, rendered here as the app's prerender does at build time.
  const handler = createStaticHandler(referenceRoutes);
  const context = await handler.query(new Request('http://localhost/login'));
  if (context instanceof Response) throw new Error(`the reference page's /login answered ${context.status}`);
  const markup = renderToString(
    createElement(StaticRouterProvider, { router: createStaticRouter(handler.dataRoutes, context), context, hydrate: false }),
  );
  const appStyles = readFileSync(path.join(appDir, 'login.html'), 'utf8').match(INLINE_STYLE);
  if (!appStyles) throw new Error(`${appDir}/login.html inlines no CSS`);
  const template = readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const page = template
    .replace(STYLESHEET, '')
    .replace('</head>', () => `${appStyles.join('')}\n  </head>`)
    .replace('<!--app-->', () => markup);
  writeFileSync(path.join(outDir, 'login.html'), page);
  writeFileSync(path.join(outDir, 'prerendered.json'), `${JSON.stringify({ '/login': 'login.html' })}\n`);
}
