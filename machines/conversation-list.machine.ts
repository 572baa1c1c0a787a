import { assertEvent, assign, enqueueActions, sendTo, setup } from 'xstate';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { pagerMachine, type PagerEvent, type PagerInput } from './pager.machine';
import { report, type ReportsTo } from './report';
import type { Conversation } from '../contract/chat';
import {
  CONVERSATION_PAGE_SIZE,
  SEARCH_DEBOUNCE_MS,
  SEARCH_MIN_CHARS,
  SEARCH_PAGE_SIZE,
  TITLE_EMPTY,
  TITLE_MAX_LENGTH,
  TITLE_TOO_LONG,
} from '../contract/chat-constants';

/**
 * The chat sidebar's conversation list (spec chat-and-session.md section 4 "Conversation list", 5, 8, 9): two
 * pagers and the one rename or delete that may run at a time.
 *
 * - child `pages` (a pager): the conversations, newest activity first, 10 a page with load more; loads at start.
 * - child `search` (a pager): search results, from 3 characters after 1500 ms of quiet, 10 a page with load more;
 *   an empty search is `inactive` and the view shows `pages` again.
 * - states `idle` | `renaming` (tag `renaming`) | `deleting` (tag `deleting`). A rename shows at once in both
 *   pagers and is put back if the call fails; a delete removes it from both when the server confirms.
 * - `confirmingDelete`: the conversation the 'Delete Conversation' dialog asks about (`conversation.askDelete`,
 *   `conversation.cancelDelete`); the dialog closes when the delete succeeds and stays for another try when it
 *   fails.
 *
 * Events come from the screen machine (the view's actions, and what the chat learns: `conversation.patch` for a
 * polled title, `list.refresh` after a reply). Reported to the parent: `conversation.deleted` and every toast as
 * `notice.show` (its own, and the pagers' failures passed on).
 */
export const FETCH_FAILED = 'Failed to fetch conversations';
export const LOAD_MORE_FAILED = 'Failed to load more conversations';
export const SEARCH_FAILED = 'Failed to search conversations';
export const SEARCH_MORE_FAILED = 'Failed to load more search results';
export const RENAME_FAILED = 'Failed to rename conversation';
export const DELETE_FAILED = 'Failed to delete conversation';
export const RENAMED = 'Conversation renamed successfully';
export const DELETED = 'Conversation deleted successfully';

export const PAGES_INPUT: PagerInput = {
  pageSize: CONVERSATION_PAGE_SIZE,
  mode: 'append',
  messages: { load: FETCH_FAILED, loadMore: LOAD_MORE_FAILED },
};
export const SEARCH_INPUT: PagerInput = {
  pageSize: SEARCH_PAGE_SIZE,
  mode: 'append',
  search: { minLength: SEARCH_MIN_CHARS, debounceMs: SEARCH_DEBOUNCE_MS, required: true },
  messages: { load: SEARCH_FAILED, loadMore: SEARCH_MORE_FAILED },
};

export interface ConversationListContext extends ReportsTo {
  /** The running rename: the new (trimmed) title. */
  renaming: { id: string; title: string } | null;
  deletingId: string | null;
  /** The conversation the delete dialog asks about, until cancelled or deleted. */
  confirmingDelete: { id: string; title: string } | null;
}

export type ConversationListEvent =
  | { type: 'list.loadMore' }
  /** Reload the conversations shown (after a reply, a new conversation): no spinner. */
  | { type: 'list.refresh' }
  | { type: 'search.change'; text: string }
  | { type: 'search.loadMore' }
  | { type: 'conversation.rename'; id: string; title: string }
  /** The row's Delete: the dialog asks first. */
  | { type: 'conversation.askDelete'; id: string; title: string }
  | { type: 'conversation.cancelDelete' }
  | { type: 'conversation.delete'; id: string }
  /** Something the chat learnt about a conversation (its polled title): shown where it is listed. */
  | { type: 'conversation.patch'; id: string; patch: Partial<Pick<Conversation, 'title' | 'updated_at'>> }
  /** A pager's failure, passed on to the screen. */
  | Notice;

export type ConversationListReported = Notice | { type: 'conversation.deleted'; id: string };

export function validateTitle(title: string): string | null {
  const trimmed = title.trim();
  if (!trimmed) return TITLE_EMPTY;
  if (trimmed.length > TITLE_MAX_LENGTH) return TITLE_TOO_LONG;
  return null;
}

const bothPagers = ['pages', 'search'] as const;

export const conversationListMachine = setup({
  types: {
    context: {} as ConversationListContext,
    events: {} as ConversationListEvent,
    // Run by itself (tests, paths) it takes no input (`void`: an optional input's `undefined` would be dropped).
    input: {} as ReportsTo | void,
    emitted: {} as ConversationListReported,
    tags: {} as 'renaming' | 'deleting',
    children: {} as { pages: 'pages'; search: 'search'; renameConversation: 'renameConversation'; deleteConversation: 'deleteConversation' },
  },
  actors: {
    pages: pagerMachine,
    search: pagerMachine,
    renameConversation: notProvided<Conversation | void, { id: string; title: string }>('renameConversation'),
    deleteConversation: notProvided<void, { id: string }>('deleteConversation'),
  },
  guards: {
    isInvalidTitle: ({ event }) => {
      assertEvent(event, 'conversation.rename');
      return validateTitle(event.title) !== null;
    },
  },
  actions: {
    /** The same item event to both pagers: a conversation may be listed and found at once. */
    toBothPagers: enqueueActions(({ enqueue }, params: { event: PagerEvent }) => {
      for (const id of bothPagers) enqueue.sendTo(id, params.event);
    }),
    passOnNotice: report(({ event }: { event: Notice }) => event),
    askDelete: assign(({ event }) => {
      assertEvent(event, 'conversation.askDelete');
      return { confirmingDelete: { id: event.id, title: event.title } };
    }),
    cancelDelete: assign({ confirmingDelete: null }),
    rejectTitle: report(({ event }: { event: { title: string } }) => notice('error', validateTitle(event.title) as string)),
  },
}).createMachine({
  id: 'conversationList',
  context: ({ input }) => ({ renaming: null, deletingId: null, confirmingDelete: null, parent: input?.parent }),
  invoke: [
    { id: 'pages', src: 'pages', input: ({ self }) => ({ ...PAGES_INPUT, parent: self }) },
    { id: 'search', src: 'search', input: ({ self }) => ({ ...SEARCH_INPUT, parent: self }) },
  ],
  on: {
    'list.loadMore': { actions: sendTo('pages', { type: 'pager.loadMore' }) },
    'list.refresh': { actions: sendTo('pages', { type: 'pager.refetch' }) },
    'search.change': {
      actions: sendTo('search', ({ event }) => ({ type: 'pager.search' as const, text: event.text })),
    },
    'search.loadMore': { actions: sendTo('search', { type: 'pager.loadMore' }) },
    'conversation.patch': {
      actions: {
        type: 'toBothPagers',
        params: ({ event }) => ({ event: { type: 'item.upsert', item: { id: event.id, ...event.patch }, insert: false } }),
      },
    },
    'notice.show': { actions: 'passOnNotice' },
  },
  initial: 'idle',
  states: {
    idle: {
      description: 'Nothing running: a rename or a delete may start; the delete dialog may be opened or closed.',
      on: {
        'conversation.askDelete': { actions: 'askDelete' },
        'conversation.cancelDelete': { actions: 'cancelDelete' },
        'conversation.rename': [
          { guard: 'isInvalidTitle', actions: 'rejectTitle' },
          {
            target: 'renaming',
            actions: [
              assign(({ event }) => ({ renaming: { id: event.id, title: event.title.trim() } })),
              {
                type: 'toBothPagers',
                params: ({ event }) => ({ event: { type: 'item.patch', id: event.id, patch: { title: event.title.trim() } } }),
              },
            ],
          },
        ],
        'conversation.delete': {
          target: 'deleting',
          actions: assign(({ event }) => ({ deletingId: event.id })),
        },
      },
    },
    renaming: {
      description: 'A new title is being saved; it shows already and is put back if the call fails. One operation at a time.',
      tags: ['renaming'],
      on: {
        'conversation.askDelete': { actions: 'askDelete' },
        'conversation.cancelDelete': { actions: 'cancelDelete' },
      },
      invoke: {
        id: 'renameConversation',
        src: 'renameConversation',
        input: ({ context }) => context.renaming!,
        onDone: {
          target: 'idle',
          actions: [
            {
              type: 'toBothPagers',
              params: ({ context, event }) => ({
                event: {
                  type: 'item.commit',
                  id: context.renaming!.id,
                  item: event.output ? { id: event.output.id, title: event.output.title, updated_at: event.output.updated_at } : undefined,
                },
              }),
            },
            report(() => notice('success', RENAMED)),
            assign({ renaming: null }),
          ],
        },
        onError: {
          target: 'idle',
          actions: [
            { type: 'toBothPagers', params: ({ context }) => ({ event: { type: 'item.revert', id: context.renaming!.id } }) },
            report(() => notice('error', RENAME_FAILED)),
            assign({ renaming: null }),
          ],
        },
      },
    },
    deleting: {
      description: 'A conversation is being deleted; its dialog stays open (pending) until the server answers.',
      tags: ['deleting'],
      invoke: {
        id: 'deleteConversation',
        src: 'deleteConversation',
        input: ({ context }) => ({ id: context.deletingId as string }),
        onDone: {
          target: 'idle',
          actions: [
            { type: 'toBothPagers', params: ({ context }) => ({ event: { type: 'item.remove', id: context.deletingId as string } }) },
            report(({ context }: { context: ConversationListContext }) => ({ type: 'conversation.deleted', id: context.deletingId as string })),
            report(() => notice('success', DELETED)),
            assign({ deletingId: null, confirmingDelete: null }),
          ],
        },
        onError: {
          target: 'idle',
          actions: [
            report(() => notice('error', DELETE_FAILED)),
            assign({ deletingId: null }),
          ],
        },
      },
    },
  },
});

export type ConversationListMachine = typeof conversationListMachine;
