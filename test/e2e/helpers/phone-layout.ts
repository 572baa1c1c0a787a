import { expect, type Page } from '@playwright/test';

/** The phone the sweep lays screens out on (an iPhone 12-15's CSS viewport). */
export const PHONE = { width: 390, height: 844 };

/**
 * Fails when the page scrolls sideways, or when something visible sticks out past the right edge of the viewport
 * (the page may hide it with overflow-x: hidden, but then a person cannot reach it either). Elements clipped by a
 * container of their own that scrolls or clips (a code block, a wide table's scroller) are that container's
 * business, as are visually hidden ones (sr-only text, the live announcer). Names only the outermost offenders.
 */
export async function expectNoHorizontalOverflow(page: Page) {
  const found = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    const viewport = root.clientWidth;
    const problems: string[] = [];
    if (root.scrollWidth > viewport) problems.push(`the page scrolls sideways: ${root.scrollWidth} px wide in a ${viewport} px viewport`);

    const clips = (el: Element) => {
      const style = getComputedStyle(el);
      return style.overflowX !== 'visible' || style.clipPath !== 'none' || style.clip !== 'auto';
    };
    /**
     * Inside a container (below the page itself) that clips or scrolls what overflows it and itself fits in the
     * viewport: what sticks out is scrolled or cut inside it, not on the page. Any such ancestor will do (an SVG
     * clips its own drawing, but may sit in a table scroller that fits).
     */
    const clippedInside = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body && p !== document.documentElement; p = p.parentElement) {
        if (clips(p) && p.getBoundingClientRect().right <= viewport + 1) return true;
      }
      return false;
    };
    const describe = (el: Element) => {
      const label = el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      const cls = typeof el.className === 'string' ? el.className.split(/\s+/).slice(0, 4).join('.') : '';
      const right = Math.round(el.getBoundingClientRect().right);
      return `<${el.tagName.toLowerCase()}${cls ? ` .${cls}` : ''}> "${label}" ends at ${right} px`;
    };
    const offenders: Element[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || rect.right <= viewport + 1) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || (style.position === 'fixed' && rect.left >= viewport)) continue;
      // Visually hidden on purpose (sr-only text): clipped to nothing where it stands.
      if (style.clip !== 'auto' || style.clipPath !== 'none') continue;
      if (el instanceof SVGElement && !(el instanceof SVGSVGElement)) continue; // the drawing's box is its <svg>'s
      if (clippedInside(el)) continue;
      if (offenders.some((o) => o.contains(el))) continue;
      offenders.push(el);
    }
    for (const el of offenders.slice(0, 8)) problems.push(describe(el));
    if (offenders.length > 8) problems.push(`... and ${offenders.length - 8} more`);
    return problems;
  });
  expect(found, `at ${PHONE.width} px`).toEqual([]);
}
