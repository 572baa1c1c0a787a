import { fromPromise } from 'xstate';
import type { InboxKind } from '../../../contract/feedback-constants';
import { pagerMachine, type PageRequest, type PageResult } from '../../../machines/pager.machine';
import type { fetchInboxPage } from '../../api/feedback';

/** The API function the feedback inbox calls (src/api/feedback.ts; tests pass a fake). */
export interface FeedbackInboxApi {
  fetchInboxPage: typeof fetchInboxPage;
}

/**
 * The feedback inbox's one side effect: a page of the inbox, of one kind or all. Built once at module level:
 * `feedbackInboxMachine.provide({ actors: defineFeedbackInboxActors({ api }) })`.
 */
export function defineFeedbackInboxActors({ api }: { api: FeedbackInboxApi }) {
  return {
    list: pagerMachine.provide({
      actors: {
        fetchPage: fromPromise<PageResult, PageRequest>(async ({ input, signal }) => {
          const kind = input.filters.kind as InboxKind | undefined;
          const page = await api.fetchInboxPage({ page: input.page, pageSize: input.pageSize, kind }, signal);
          return { items: page.items, page: page.page, total: page.total, totalPages: page.total_pages };
        }),
      },
    }),
  };
}
