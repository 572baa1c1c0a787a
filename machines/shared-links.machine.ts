import { assign, sendTo, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import { SHARE_PAGE_SIZE } from '../contract/shares';
import { answerStatusOf } from './answer-status';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { pagerMachine, type PagerInput } from './pager.machine';
import { report } from './report';
import { SHARING_STOPPED, STOP_SHARING_FAILED } from './share.machine';

/**
 * The Shared Links page (/shared-links, issue 28): the links a person has made to their conversations, and stopping
 * one. Not in the spec; it follows the product's other lists.
 *
 * The list is the shared pager (`list`, invoked): SHARE_PAGE_SIZE a page with page buttons, newest first.
 * States: `browsing`; `confirming` (the 'Stop sharing' confirmation of one link: `revoke.confirm` or
 * `revoke.cancel`) -> `revoking` (tag `busy`, invokes `revoke`, DELETE /shares/{shareId}) -> `browsing` with
 * 'Sharing stopped' and the list read again; a link already gone (404: stopped from another tab) is the same
 * outcome; any other failure says 'Failed to stop sharing', keeps the link listed and
 * the question open (back to `confirming`).
 */

export const SHARED_LINKS_FETCH_FAILED = 'Failed to fetch shared links';

export const sharedLinksListInput: PagerInput = {
  pageSize: SHARE_PAGE_SIZE,
  mode: 'replace',
  messages: { load: SHARED_LINKS_FETCH_FAILED, loadMore: SHARED_LINKS_FETCH_FAILED },
};

/** The link a confirmation is about: its id, and its title for the question. */
export interface Revocation {
  shareId: string;
  title: string;
}

export interface SharedLinksContext {
  revocation: Revocation | null;
}

export type SharedLinksEvent =
  | { type: 'links.goTo'; page: number }
  | ({ type: 'link.revoke' } & Revocation)
  | { type: 'revoke.confirm' }
  | { type: 'revoke.cancel' }
  /** From the list: its failure toasts, passed on. */
  | Notice
  | DoneActorEvent<unknown, 'revoke'>
  | ErrorActorEvent<unknown, 'revoke'>;

export const sharedLinksMachine = setup({
  types: {
    context: {} as SharedLinksContext,
    events: {} as SharedLinksEvent,
    emitted: {} as Notice,
    tags: {} as 'busy',
    children: {} as { list: 'list'; revoke: 'revoke' },
  },
  actors: {
    list: pagerMachine,
    revoke: notProvided<unknown, { shareId: string }>('revoke'),
  },
  guards: {
    linkAlreadyGone: ({ event }) => answerStatusOf((event as { error?: unknown }).error) === 404,
  },
  actions: {
    passNotice: report(({ event }: { event: Notice }) => event),
    reportStopped: report(() => notice('success', SHARING_STOPPED)),
    // The only refusal the server gives is a 404 (already gone: stopped all the same); a 5xx's sentence helps nobody.
    reportStopFailed: report(() => notice('error', STOP_SHARING_FAILED)),
    refetchList: sendTo('list', { type: 'pager.refetch' }),
    forget: assign({ revocation: null }),
  },
}).createMachine({
  id: 'sharedLinks',
  context: { revocation: null },
  invoke: { id: 'list', src: 'list', input: sharedLinksListInput },
  initial: 'browsing',
  on: {
    'links.goTo': { actions: sendTo('list', ({ event }) => ({ type: 'pager.goTo' as const, page: event.page })) },
    'notice.show': { actions: 'passNotice' },
  },
  states: {
    browsing: {
      on: {
        'link.revoke': {
          target: 'confirming',
          actions: assign(({ event }) => ({ revocation: { shareId: event.shareId, title: event.title } })),
        },
      },
    },
    confirming: {
      description: 'Asks before the link stops working for everyone who has it.',
      on: {
        'revoke.confirm': 'revoking',
        'revoke.cancel': { target: 'browsing', actions: 'forget' },
      },
    },
    revoking: {
      tags: ['busy'],
      invoke: {
        id: 'revoke',
        src: 'revoke',
        input: ({ context }) => ({ shareId: context.revocation!.shareId }),
        onDone: { target: 'browsing', actions: ['reportStopped', 'refetchList', 'forget'] },
        onError: [
          { guard: 'linkAlreadyGone', target: 'browsing', actions: ['reportStopped', 'refetchList', 'forget'] },
          // The question stays open: the person may press 'Stop sharing' again, or cancel.
          { target: 'confirming', actions: 'reportStopFailed' },
        ],
      },
    },
  },
});

export type SharedLinksMachine = typeof sharedLinksMachine;
