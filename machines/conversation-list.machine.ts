import { assertEvent, assign, emit, setup } from 'xstate';
import { notProvided } from './not-provided';
import type { Conversation, ConversationList, ConversationSearchResult } from '../contract/chat';
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
 * The chat sidebar's conversation list: pages with load-more, debounced search with its own pages, inline
 * rename and delete, and upserts from the chat (a new conversation, a changed title) without a reload
 * (spec chat-and-session.md section 4 "Conversation list", 5, 8, 9).
 *
 * Three parallel regions; the view reads tags (or `matches`):
 * - `list`: `idle` | `loading` (tag `loading`, page 1 replaces) | `loadingMore` (tag `loadingMore`, next page
 *   appended) | `refreshing` (tag `refreshing`, reloads the pages already shown in one call, no spinner needed).
 * - `search`: `inactive` (empty text: the normal list) | `hint` (tag `searchHint`: 0 < trimmed length < 3, show
 *   'Type at least 3 characters to search...', no request, results cleared) | `debouncing` and `searching` (tag
 *   `searching`: waiting SEARCH_DEBOUNCE, then the request in flight) | `results` | `loadingMore` (tag
 *   `searchLoadingMore`). Every state but `inactive` has the tag `searchActive`: show `searchResults` instead of
 *   `conversations`.
 * - `operation`: `idle` | `renaming` (tag `renaming`, `renamingId`) | `deleting` (tag `deleting`, `deletingId`).
 *   One rename or delete at a time: `can({ type: 'conversation.delete', id })` is false while one runs.
 *
 * A rename is applied at once (optimistic) and reverted if the call fails. Failures of fetch/search emit
 * `list.failed` with the spec sentence (also kept in `error`).
 */
export const FETCH_FAILED = 'Failed to fetch conversations';
export const LOAD_MORE_FAILED = 'Failed to load more conversations';
export const SEARCH_FAILED = 'Failed to search conversations';
export const SEARCH_MORE_FAILED = 'Failed to load more search results';
/** For the view's toasts with the emitted detail. */
export const RENAME_FAILED = 'Failed to rename conversation';
export const DELETE_FAILED = 'Failed to delete conversation';

export interface ConversationListContext {
  conversations: Conversation[];
  /** The last page loaded (0 before the first load). */
  page: number;
  totalPages: number;
  total: number;
  /** The search box text as typed. */
  searchText: string;
  /** The trimmed query of the last search request ('' when none). */
  searchQuery: string;
  searchResults: Conversation[];
  searchPage: number;
  searchTotal: number;
  /** The last fetch/search failure sentence; cleared by the next success of the same kind. */
  error: string | null;
  renamingId: string | null;
  deletingId: string | null;
  /** The running rename: the new (trimmed) title, and the one it replaced (restored if the call fails). */
  pendingRename: { id: string; title: string; previousTitle: string | null } | null;
}

export type ConversationListEvent =
  | { type: 'list.load' }
  | { type: 'list.loadMore' }
  | { type: 'list.refresh' }
  | { type: 'search.change'; text: string }
  | { type: 'search.loadMore' }
  | { type: 'conversation.rename'; id: string; title: string }
  | { type: 'conversation.delete'; id: string }
  /** A new conversation or a changed title from the chat: put it at the top without a reload. */
  | { type: 'conversation.upsert'; conversation: Conversation };

export type ConversationListEmitted =
  | { type: 'list.failed'; message: string }
  | { type: 'rename.invalid'; id: string; message: string }
  | { type: 'rename.succeeded'; id: string; title: string }
  | { type: 'rename.failed'; id: string; title: string; detail: string }
  | { type: 'deleted'; id: string }
  | { type: 'delete.failed'; id: string; detail: string };

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Appends the items whose id is not there yet (upserts shift the server's pages). */
function appendNew(list: Conversation[], more: Conversation[]): Conversation[] {
  const ids = new Set(list.map((c) => c.id));
  return [...list, ...more.filter((c) => !ids.has(c.id))];
}

const patchById = (list: Conversation[], id: string, patch: Partial<Conversation>) =>
  list.some((c) => c.id === id) ? list.map((c) => (c.id === id ? { ...c, ...patch } : c)) : list;

/** A fetched page of the list: the conversations to show (replaced or appended) and the page fields. */
const applyPage = (output: ConversationList, conversations: Conversation[]) => ({
  conversations,
  page: output.page,
  totalPages: output.total_pages,
  total: output.total,
  error: null,
});

export function validateTitle(title: string): string | null {
  const trimmed = title.trim();
  if (!trimmed) return TITLE_EMPTY;
  if (trimmed.length > TITLE_MAX_LENGTH) return TITLE_TOO_LONG;
  return null;
}

export const conversationListMachine = setup({
  types: {
    context: {} as ConversationListContext,
    events: {} as ConversationListEvent,
    emitted: {} as ConversationListEmitted,
    tags: {} as
      | 'loading'
      | 'loadingMore'
      | 'refreshing'
      | 'searchActive'
      | 'searchHint'
      | 'searching'
      | 'searchLoadingMore'
      | 'renaming'
      | 'deleting',
  },
  actors: {
    fetchConversations: notProvided<ConversationList, { page: number; pageSize: number }>('fetchConversations'),
    searchConversations: notProvided<ConversationSearchResult, { query: string; page: number; pageSize: number }>('searchConversations'),
    renameConversation: notProvided<Conversation | void, { id: string; title: string }>('renameConversation'),
    deleteConversation: notProvided<void, { id: string }>('deleteConversation'),
  },
  delays: {
    SEARCH_DEBOUNCE: SEARCH_DEBOUNCE_MS,
  },
  guards: {
    hasMorePages: ({ context }) => context.page < context.totalPages,
    hasMoreResults: ({ context }) => context.searchResults.length < context.searchTotal,
    isEmptySearch: ({ event }) => {
      assertEvent(event, 'search.change');
      return event.text.trim().length === 0;
    },
    isShortSearch: ({ event }) => {
      assertEvent(event, 'search.change');
      return event.text.trim().length < SEARCH_MIN_CHARS;
    },
    isInvalidTitle: ({ event }) => {
      assertEvent(event, 'conversation.rename');
      return validateTitle(event.title) !== null;
    },
  },
  actions: {
    listFailed: emit((_, params: { message: string }) => ({ type: 'list.failed' as const, message: params.message })),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    setSearchText: assign(({ event }) => {
      assertEvent(event, 'search.change');
      return { searchText: event.text };
    }),
    clearSearchResults: assign({ searchResults: [], searchPage: 0, searchTotal: 0, searchQuery: '' }),
    rejectTitle: emit(({ event }) => {
      assertEvent(event, 'conversation.rename');
      return { type: 'rename.invalid' as const, id: event.id, message: validateTitle(event.title) as string };
    }),
    applyRename: assign(({ context, event }) => {
      assertEvent(event, 'conversation.rename');
      const title = event.title.trim();
      const before = [...context.conversations, ...context.searchResults].find((c) => c.id === event.id);
      return {
        renamingId: event.id,
        pendingRename: { id: event.id, title, previousTitle: before?.title ?? null },
        conversations: patchById(context.conversations, event.id, { title }),
        searchResults: patchById(context.searchResults, event.id, { title }),
      };
    }),
    upsert: assign(({ context, event }) => {
      assertEvent(event, 'conversation.upsert');
      const existing = context.conversations.find((c) => c.id === event.conversation.id);
      const merged = { ...existing, ...event.conversation };
      return {
        conversations: [merged, ...context.conversations.filter((c) => c.id !== merged.id)],
        total: existing ? context.total : context.total + 1,
        searchResults: patchById(context.searchResults, merged.id, event.conversation),
      };
    }),
  },
}).createMachine({
  id: 'conversationList',
  type: 'parallel',
  context: {
    conversations: [],
    page: 0,
    totalPages: 0,
    total: 0,
    searchText: '',
    searchQuery: '',
    searchResults: [],
    searchPage: 0,
    searchTotal: 0,
    error: null,
    renamingId: null,
    deletingId: null,
    pendingRename: null,
  },
  on: {
    'conversation.upsert': { actions: 'upsert' },
  },
  states: {
    list: {
      initial: 'idle',
      on: {
        // From any list state: (re)load page 1, cancelling a load-more or refresh in flight.
        'list.load': '.loading',
      },
      states: {
        idle: {
          on: {
            'list.loadMore': { guard: 'hasMorePages', target: 'loadingMore' },
            'list.refresh': 'refreshing',
          },
        },
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'fetchConversations',
            src: 'fetchConversations',
            input: () => ({ page: 1, pageSize: CONVERSATION_PAGE_SIZE }),
            onDone: {
              target: 'idle',
              actions: assign(({ event }) => applyPage(event.output, event.output.conversations)),
            },
            onError: {
              target: 'idle',
              actions: [{ type: 'setError', params: { message: FETCH_FAILED } }, { type: 'listFailed', params: { message: FETCH_FAILED } }],
            },
          },
        },
        loadingMore: {
          tags: ['loadingMore'],
          invoke: {
            id: 'fetchConversations',
            src: 'fetchConversations',
            input: ({ context }) => ({ page: context.page + 1, pageSize: CONVERSATION_PAGE_SIZE }),
            onDone: {
              target: 'idle',
              actions: assign(({ context, event }) => applyPage(event.output, appendNew(context.conversations, event.output.conversations))),
            },
            onError: {
              target: 'idle',
              actions: [{ type: 'setError', params: { message: LOAD_MORE_FAILED } }, { type: 'listFailed', params: { message: LOAD_MORE_FAILED } }],
            },
          },
        },
        refreshing: {
          tags: ['refreshing'],
          invoke: {
            id: 'fetchConversations',
            src: 'fetchConversations',
            // The pages already shown, in one call (page_size is at most 100).
            input: ({ context }) => ({ page: 1, pageSize: Math.min(100, Math.max(1, context.page) * CONVERSATION_PAGE_SIZE) }),
            onDone: {
              target: 'idle',
              actions: assign(({ event }) => ({
                conversations: event.output.conversations,
                page: Math.max(1, Math.ceil(event.output.conversations.length / CONVERSATION_PAGE_SIZE)),
                totalPages: Math.ceil(event.output.total / CONVERSATION_PAGE_SIZE),
                total: event.output.total,
                error: null,
              })),
            },
            onError: {
              target: 'idle',
              actions: [{ type: 'setError', params: { message: FETCH_FAILED } }, { type: 'listFailed', params: { message: FETCH_FAILED } }],
            },
          },
        },
      },
    },
    search: {
      initial: 'inactive',
      on: {
        // Handled by the region, so a change in any search state exits it: the debounce restarts, a request in
        // flight is cancelled.
        'search.change': [
          { guard: 'isEmptySearch', target: '.inactive', actions: ['setSearchText', 'clearSearchResults'] },
          { guard: 'isShortSearch', target: '.hint', actions: ['setSearchText', 'clearSearchResults'] },
          { target: '.debouncing', actions: 'setSearchText' },
        ],
      },
      states: {
        inactive: {},
        hint: { tags: ['searchActive', 'searchHint'] },
        debouncing: {
          tags: ['searchActive', 'searching'],
          after: { SEARCH_DEBOUNCE: 'searching' },
        },
        searching: {
          tags: ['searchActive', 'searching'],
          entry: assign({ searchQuery: ({ context }) => context.searchText.trim() }),
          invoke: {
            id: 'searchConversations',
            src: 'searchConversations',
            input: ({ context }) => ({ query: context.searchText.trim(), page: 1, pageSize: SEARCH_PAGE_SIZE }),
            onDone: {
              target: 'results',
              actions: assign(({ event }) => ({
                searchResults: event.output.conversations,
                searchPage: event.output.page,
                searchTotal: event.output.total,
                error: null,
              })),
            },
            onError: {
              target: 'results',
              actions: [
                assign({ searchResults: [], searchPage: 0, searchTotal: 0 }),
                { type: 'setError', params: { message: SEARCH_FAILED } },
                { type: 'listFailed', params: { message: SEARCH_FAILED } },
              ],
            },
          },
        },
        results: {
          tags: ['searchActive'],
          on: {
            'search.loadMore': { guard: 'hasMoreResults', target: 'loadingMore' },
          },
        },
        loadingMore: {
          tags: ['searchActive', 'searchLoadingMore'],
          invoke: {
            id: 'searchConversations',
            src: 'searchConversations',
            input: ({ context }) => ({ query: context.searchQuery, page: context.searchPage + 1, pageSize: SEARCH_PAGE_SIZE }),
            onDone: {
              target: 'results',
              actions: assign(({ context, event }) => ({
                searchResults: appendNew(context.searchResults, event.output.conversations),
                searchPage: event.output.page,
                searchTotal: event.output.total,
                error: null,
              })),
            },
            onError: {
              target: 'results',
              actions: [{ type: 'setError', params: { message: SEARCH_MORE_FAILED } }, { type: 'listFailed', params: { message: SEARCH_MORE_FAILED } }],
            },
          },
        },
      },
    },
    operation: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'conversation.rename': [
              { guard: 'isInvalidTitle', actions: 'rejectTitle' },
              { target: 'renaming', actions: 'applyRename' },
            ],
            'conversation.delete': {
              target: 'deleting',
              actions: assign(({ event }) => ({ deletingId: event.id })),
            },
          },
        },
        renaming: {
          tags: ['renaming'],
          invoke: {
            id: 'renameConversation',
            src: 'renameConversation',
            input: ({ context }) => ({ id: context.pendingRename!.id, title: context.pendingRename!.title }),
            onDone: {
              target: 'idle',
              actions: [
                emit(({ context, event }) => ({
                  type: 'rename.succeeded' as const,
                  id: context.pendingRename!.id,
                  title: event.output?.title ?? context.pendingRename!.title,
                })),
                assign(({ context, event }) => {
                  const { id } = context.pendingRename!;
                  const saved = event.output;
                  const patch = saved ? { title: saved.title, updated_at: saved.updated_at } : {};
                  return {
                    renamingId: null,
                    pendingRename: null,
                    conversations: patchById(context.conversations, id, patch),
                    searchResults: patchById(context.searchResults, id, patch),
                  };
                }),
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                emit(({ context, event }) => ({
                  type: 'rename.failed' as const,
                  id: context.pendingRename!.id,
                  title: context.pendingRename!.title,
                  detail: errorText(event.error),
                })),
                // Put the old title back in both lists, unless something else (an upsert) renamed it meanwhile.
                assign(({ context }) => {
                  const { id, title, previousTitle } = context.pendingRename!;
                  const revert = (list: Conversation[]) =>
                    previousTitle === null ? list : list.map((c) => (c.id === id && c.title === title ? { ...c, title: previousTitle } : c));
                  return {
                    renamingId: null,
                    pendingRename: null,
                    conversations: revert(context.conversations),
                    searchResults: revert(context.searchResults),
                  };
                }),
              ],
            },
          },
        },
        deleting: {
          tags: ['deleting'],
          invoke: {
            id: 'deleteConversation',
            src: 'deleteConversation',
            input: ({ context }) => ({ id: context.deletingId as string }),
            onDone: {
              target: 'idle',
              actions: [
                emit(({ context }) => ({ type: 'deleted' as const, id: context.deletingId as string })),
                assign(({ context }) => {
                  const id = context.deletingId as string;
                  const inList = context.conversations.some((c) => c.id === id);
                  const inResults = context.searchResults.some((c) => c.id === id);
                  return {
                    deletingId: null,
                    conversations: context.conversations.filter((c) => c.id !== id),
                    total: inList ? Math.max(0, context.total - 1) : context.total,
                    searchResults: context.searchResults.filter((c) => c.id !== id),
                    searchTotal: inResults ? Math.max(0, context.searchTotal - 1) : context.searchTotal,
                  };
                }),
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                emit(({ context, event }) => ({ type: 'delete.failed' as const, id: context.deletingId as string, detail: errorText(event.error) })),
                assign({ deletingId: null }),
              ],
            },
          },
        },
      },
    },
  },
});

export type ConversationListMachine = typeof conversationListMachine;
