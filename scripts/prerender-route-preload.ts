/**
 * The first script of index.html (serialised into an asset by prerender-plugin.ts, so it runs as plain JavaScript
 * in the browser, beside the entry's download). For a visitor with a session in storage it preloads the code of the
 * signed-in screen the address opens (`screens`: route path -> its chunks and stylesheets), which the router would otherwise ask
 * for only once the entry has loaded and run. A signed-out visitor is sent to Login instead: nothing is preloaded.
 */
export function preloadSignedInScreen(base: string, tokenKey: string, screens: Record<string, string[]>): void {
  let signedIn = false;
  try {
    signedIn = Boolean(localStorage.getItem(tokenKey));
  } catch {
    // Storage blocked: the app treats the visitor as signed out.
  }
  if (!signedIn || !location.pathname.startsWith(base)) return;
  const path = `/${location.pathname.slice(base.length)}`.replace(/\/+$/, '') || '/';
  const files = screens[path];
  if (!files) return;
  const tags = document.createDocumentFragment();
  for (const href of files) {
    const link = document.createElement('link');
    // Only fetched: the router's loader inserts the stylesheet (and waits for it), and the chunk loader the scripts.
    link.rel = 'preload';
    if (href.endsWith('.css')) {
      link.as = 'style';
      // As Vite's preload helper asks for stylesheets, so the browser reuses the response.
      link.crossOrigin = '';
    } else {
      // The chunks are classic scripts, fetched without CORS (classic-chunks-plugin.ts).
      link.as = 'script';
    }
    link.href = href;
    tags.append(link);
  }
  document.head.append(tags);
}
