/** The rows of page `page` (from 1) of `size` rows, for a repository's limit/offset. */
export function pageWindow(page: number, size: number): { limit: number; offset: number } {
  return { limit: size, offset: (page - 1) * size };
}

/** 0 for an empty list. */
export function totalPages(total: number, size: number): number {
  return Math.ceil(total / size);
}
