import { fromPromise } from 'xstate';
import type { TipLevel } from '../../../contract/tips';
import type { PageRequest, PageResult } from '../../../machines/pager.machine';
import type { fetchTips } from '../../api/tips';

/** The API function the Tips modal calls (src/api/tips.ts; tests pass a fake). */
export interface TipsApi {
  fetchTips: typeof fetchTips;
}

/**
 * The Tips list's side effect: a page of tips for the search, the level and the tag. Built once at module level:
 * `pagerMachine.provide({ actors: defineTipsActors({ api }) })`.
 */
export function defineTipsActors({ api }: { api: TipsApi }) {
  return {
    fetchPage: fromPromise<PageResult, PageRequest>(async ({ input, signal }) => {
      const list = await api.fetchTips(
        {
          page: input.page,
          limit: input.pageSize,
          search: input.query,
          level: (input.filters.level as TipLevel | undefined) ?? null,
          tag: (input.filters.tag as string | undefined) ?? null,
        },
        signal,
      );
      return { items: list.tips, page: list.page, total: list.total, totalPages: list.total_pages };
    }),
  };
}
