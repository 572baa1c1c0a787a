import { parseHTML } from 'linkedom';

/**
 * React's `prerender` waits for every Suspense boundary, but a boundary whose content suspended while rendering (the
 * landing route does once: measured, rendering it again did not help) is still written in streaming form: the
 * fallback in place, the content in a hidden `<div id="S:n">` and inline scripts (`$RC`) that swap them. Our CSP
 * refuses inline scripts, so such a page would stay on its spinner. The content is complete, so this does the swap at
 * build time and drops the scripts: the same markup React writes for a boundary that did not suspend (`<!--$-->`),
 * which hydration accepts.
 */
export function resolveSuspendedBoundaries(markup: string): string {
  if (!markup.includes('<!--$?-->')) return markup;
  const { document } = parseHTML(`<!doctype html><html><body><div id="prerender-root">${markup}</div></body></html>`);
  const root = document.getElementById('prerender-root')!;
  for (const template of [...root.querySelectorAll('template[id^="B:"]')]) {
    const n = template.id.slice(2);
    const segment = root.querySelector(`div[hidden][id="S:${n}"]`);
    const opening = template.previousSibling;
    if (!segment || !opening || opening.nodeType !== 8 || (opening as unknown as Comment).data !== '$?') {
      throw new Error(`prerender: a suspended boundary B:${n} has no content to put in place`);
    }
    // The fallback: everything after the template up to the boundary's closing comment.
    let node = template.nextSibling;
    while (node && !(node.nodeType === 8 && (node as unknown as Comment).data === '/$')) {
      const next = node.nextSibling;
      node.remove();
      node = next;
    }
    if (!node) throw new Error(`prerender: the boundary B:${n} is not closed`);
    template.replaceWith(...segment.childNodes);
    (opening as unknown as Comment).data = '$';
    segment.remove();
  }
  for (const script of [...root.querySelectorAll('script')]) script.remove();
  if (root.innerHTML.includes('<!--$?-->')) throw new Error('prerender: a suspended boundary is left');
  return root.innerHTML;
}
