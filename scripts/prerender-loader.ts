/**
 * The only script of a prerendered page (serialised into an asset by prerender-plugin.ts, so it runs as plain
 * JavaScript in the browser): once the browser has painted the prerendered screen, it preloads the app's chunks
 * and adds the chunk loader's script, which runs the entry (classic-chunks-plugin.ts). Until then the document and
 * its stylesheet have the network to themselves.
 */
export function loadAppAfterPaint(chunkLoader: string, entry: string, preloads: string[]): void {
  const load = () => {
    // One insertion into the document, not one per tag.
    const tags = document.createDocumentFragment();
    for (const href of preloads) {
      const link = document.createElement('link');
      link.rel = 'preload';
      link.as = 'script';
      link.href = href;
      tags.append(link);
    }
    const script = document.createElement('script');
    script.src = chunkLoader;
    script.dataset.entry = entry;
    tags.append(script);
    document.head.append(tags);
  };
  // A hidden tab paints nothing; otherwise requestAnimationFrame runs just before the next paint, the timeout after it.
  if (document.visibilityState === 'hidden') load();
  else requestAnimationFrame(() => setTimeout(load, 0));
}
