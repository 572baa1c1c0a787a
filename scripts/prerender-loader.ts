/**
 * The only script of a prerendered page (serialised into an asset by prerender-plugin.ts, so it runs as plain
 * JavaScript in the browser): once the browser has painted the prerendered screen, it preloads the app's chunks
 * and adds the entry script. Until then the document and its stylesheet have the network to themselves.
 */
export function loadAppAfterPaint(entry: string, preloads: string[]): void {
  const load = () => {
    // One insertion into the document, not one per tag.
    const tags = document.createDocumentFragment();
    for (const href of preloads) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      tags.append(link);
    }
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    tags.append(script);
    document.head.append(tags);
  };
  // A hidden tab paints nothing; otherwise requestAnimationFrame runs just before the next paint, the timeout after it.
  if (document.visibilityState === 'hidden') load();
  else requestAnimationFrame(() => setTimeout(load, 0));
}
