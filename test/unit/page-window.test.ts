import { describe, expect, it } from 'vitest';
import { pageWindow } from '../../src/ui/page-window';

describe('pageWindow', () => {
  it('lists every page when there are 7 or fewer', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(1, 6)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pageWindow(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('shows a window of 5 at the start, then an ellipsis and the last page', () => {
    expect(pageWindow(1, 12)).toEqual([1, 2, 3, 4, 5, 'ellipsis', 12]);
    expect(pageWindow(3, 12)).toEqual([1, 2, 3, 4, 5, 'ellipsis', 12]);
  });

  it('centres the window on the current page with ellipses on both sides', () => {
    expect(pageWindow(6, 12)).toEqual([1, 'ellipsis', 4, 5, 6, 7, 8, 'ellipsis', 12]);
    expect(pageWindow(4, 12)).toEqual([1, 2, 3, 4, 5, 6, 'ellipsis', 12]);
    expect(pageWindow(5, 12)).toEqual([1, 'ellipsis', 3, 4, 5, 6, 7, 'ellipsis', 12]);
  });

  it('pins the window to the end near the last page', () => {
    expect(pageWindow(12, 12)).toEqual([1, 'ellipsis', 8, 9, 10, 11, 12]);
    expect(pageWindow(10, 12)).toEqual([1, 'ellipsis', 8, 9, 10, 11, 12]);
    expect(pageWindow(9, 12)).toEqual([1, 'ellipsis', 7, 8, 9, 10, 11, 12]);
  });

  it('never shows more than 5 window pages plus first and last', () => {
    for (let total = 1; total <= 40; total++) {
      for (let page = 1; page <= total; page++) {
        const items = pageWindow(page, total);
        const pages = items.filter((x): x is number => x !== 'ellipsis');
        expect(pages[0]).toBe(1);
        expect(pages.at(-1)).toBe(total);
        expect(pages).toContain(page);
        expect(pages.length).toBeLessThanOrEqual(7);
        expect([...pages].sort((a, b) => a - b)).toEqual(pages);
        expect(new Set(pages).size).toBe(pages.length);
        expect(items.filter((x) => x === 'ellipsis').length).toBeLessThanOrEqual(2);
      }
    }
  });

  it('clamps out-of-range pages and handles no pages', () => {
    expect(pageWindow(0, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(99, 12)).toEqual([1, 'ellipsis', 8, 9, 10, 11, 12]);
    expect(pageWindow(1, 0)).toEqual([]);
  });
});
