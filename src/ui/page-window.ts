/** How many consecutive page buttons the window shows (spec: up to 5, plus first and last). */
export const PAGE_WINDOW_SIZE = 5;

/**
 * The page buttons of a pagination bar: a window of up to 5 pages around `page`, plus the first and last
 * page, with 'ellipsis' where pages are skipped. `page` is clamped into 1..totalPages.
 * pageWindow(6, 12) -> [1, 'ellipsis', 4, 5, 6, 7, 8, 'ellipsis', 12]
 */
export function pageWindow(page: number, totalPages: number): (number | 'ellipsis')[] {
  const total = Math.max(0, Math.floor(totalPages));
  if (total === 0) return [];
  const current = Math.min(Math.max(1, Math.floor(page) || 1), total);
  const start = Math.max(1, Math.min(current - Math.floor(PAGE_WINDOW_SIZE / 2), total - PAGE_WINDOW_SIZE + 1));
  const end = Math.min(total, start + PAGE_WINDOW_SIZE - 1);
  const out: (number | 'ellipsis')[] = [];
  if (start > 1) {
    out.push(1);
    if (start > 2) out.push('ellipsis');
  }
  for (let p = start; p <= end; p++) out.push(p);
  if (end < total) {
    if (end < total - 1) out.push('ellipsis');
    out.push(total);
  }
  return out;
}
