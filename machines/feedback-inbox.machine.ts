import { setup, sendTo } from 'xstate';
import type { InboxItem } from '../contract/feedback';
import { INBOX_FETCH_FAILED, INBOX_PAGE_SIZE, type InboxKind } from '../contract/feedback-constants';
import { report } from './report';
import type { Notice } from './notice';
import { pagerMachine, type PagerInput } from './pager.machine';

/**
 * The admins' feedback inbox (issue 28; not in the spec): their organisation's feedback submissions, issue
 * reports and reply ratings, newest first (the superuser: every organisation's). The list is the shared pager
 * (`list`, invoked): INBOX_PAGE_SIZE a page with page buttons, and a kind filter (all, feedback, reports,
 * ratings) that reloads page 1. A failed load keeps what was shown, says 'Failed to fetch feedback' and offers
 * `inbox.retry`. The machine has one state (`browsing`): it routes the view's events to the list and passes the
 * list's toasts on.
 */

export type InboxFilter = 'all' | InboxKind;
export type InboxEntry = InboxItem;

export const inboxListInput: PagerInput = {
  pageSize: INBOX_PAGE_SIZE,
  mode: 'replace',
  messages: { load: INBOX_FETCH_FAILED, loadMore: INBOX_FETCH_FAILED },
};

export type FeedbackInboxEvent =
  | { type: 'inbox.filter'; kind: InboxFilter }
  | { type: 'inbox.goTo'; page: number }
  | { type: 'inbox.retry' }
  /** From the list: its failure toasts, passed on. */
  | Notice;

/** The pager's filters for a choice of kind: none for all. */
export const filtersOf = (kind: InboxFilter) => (kind === 'all' ? {} : { kind });

export const feedbackInboxMachine = setup({
  types: {
    events: {} as FeedbackInboxEvent,
    emitted: {} as Notice,
    children: {} as { list: 'list' },
  },
  actors: { list: pagerMachine },
  actions: {
    passNotice: report(({ event }: { event: Notice }) => event),
  },
}).createMachine({
  id: 'feedbackInbox',
  invoke: { id: 'list', src: 'list', input: ({ self }) => ({ ...inboxListInput, parent: self }) },
  initial: 'browsing',
  states: {
    browsing: {
      description: 'The inbox is shown; the list loads, filters and pages itself.',
      on: {
        'inbox.filter': { actions: sendTo('list', ({ event }) => ({ type: 'pager.filter' as const, filters: filtersOf(event.kind) })) },
        'inbox.goTo': { actions: sendTo('list', ({ event }) => ({ type: 'pager.goTo' as const, page: event.page })) },
        'inbox.retry': { actions: sendTo('list', { type: 'pager.load' }) },
        'notice.show': { actions: 'passNotice' },
      },
    },
  },
});

export type FeedbackInboxMachine = typeof feedbackInboxMachine;
