import { fromPromise } from 'xstate';
import type { InboxKind } from '../../../contract/feedback-constants';
import { feedbackInboxMachine } from '../../../machines/feedback-inbox.machine';
import { pagerMachine, type PageRequest, type PageResult } from '../../../machines/pager.machine';
import type { fetchInboxPage } from '../../api/feedback';

export interface FeedbackInboxApi {
  fetchInboxPage: typeof fetchInboxPage;
}

/** The feedback inbox's machine with its one call: a page of the inbox, of one kind or all. */
export function defineFeedbackInboxMachine({ api }: { api: FeedbackInboxApi }) {
  return feedbackInboxMachine.provide({
    actors: {
      list: pagerMachine.provide({
        actors: {
          fetchPage: fromPromise<PageResult, PageRequest>(async ({ input, signal }) => {
            const kind = input.filters.kind as InboxKind | undefined;
            const page = await api.fetchInboxPage({ page: input.page, pageSize: input.pageSize, kind }, signal);
            return { items: page.items, page: page.page, total: page.total, totalPages: page.total_pages };
          }),
        },
      }),
    },
  });
}
