import { fromPromise } from 'xstate';
import { pagerMachine, type PageRequest, type PageResult } from '../../../machines/pager.machine';
import type { Draft } from '../../../machines/record-editor.machine';
import type { Revocation } from '../../../machines/shared-links.machine';
import type { fetchMyShares, revokeShareLink } from '../../api/shares';
import { withAnswerStatus } from '../../lib/answer-status';

/** The API functions the Shared Links page calls (src/api/shares.ts; tests pass fakes). */
export interface SharedLinksApi {
  fetchMyShares: typeof fetchMyShares;
  revokeShareLink: typeof revokeShareLink;
}

/**
 * The Shared Links page's side effects, for the record editor (machines/record-editor.machine.ts): a page of the
 * person's links, and stopping one. Built once at module level: `recordEditorMachine.provide({ actors })`.
 */
export function defineSharedLinksActors({ api }: { api: SharedLinksApi }) {
  return {
    list: pagerMachine.provide({
      actors: {
        fetchPage: fromPromise<PageResult, PageRequest>(async ({ input, signal }) => {
          const list = await api.fetchMyShares({ page: input.page, pageSize: input.pageSize }, signal);
          return { items: list.shares, page: list.page, total: list.total, totalPages: list.total_pages };
        }),
      },
    }),
    // The status tells a link already gone (404: the same outcome) from a failure.
    act: fromPromise<unknown, Draft>(({ input }) => withAnswerStatus(api.revokeShareLink((input as unknown as Revocation).shareId))),
  };
}
