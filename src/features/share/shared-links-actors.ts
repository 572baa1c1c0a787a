import { fromPromise } from 'xstate';
import { pagerMachine, type PageRequest, type PageResult } from '../../../machines/pager.machine';
import { sharedLinksMachine } from '../../../machines/shared-links.machine';
import { fetchMyShares, revokeShareLink } from '../../api/shares';
import { withAnswerStatus } from '../../lib/answer-status';

/** The Shared Links page's machine with its calls. */
export const sharedLinksPageMachine = sharedLinksMachine.provide({
  actors: {
    list: pagerMachine.provide({
      actors: {
        fetchPage: fromPromise<PageResult, PageRequest>(async ({ input, signal }) => {
          const list = await fetchMyShares({ page: input.page, pageSize: input.pageSize }, signal);
          return { items: list.shares, page: list.page, total: list.total, totalPages: list.total_pages };
        }),
      },
    }),
    // The status tells a link already gone (404: the same outcome) from a failure.
    revoke: fromPromise<unknown, { shareId: string }>(({ input }) => withAnswerStatus(revokeShareLink(input.shareId))),
  },
});
