import { and, assertEvent, assign, setup } from 'xstate';
import { answerStatusOf } from './answer-status';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { report, type ReportsTo } from './report';

/**
 * One paged list from the server, behind every list of the product (ARCHITECTURE.md "Screens made of
 * machines"): the conversation list and its search results now, the admin tables later.
 *
 * - Pages: `append` mode adds the next page below (load more); `replace` mode shows one page at a time (page
 *   buttons, `pager.goTo`). `pager.refetch` reloads what is shown without a spinner.
 * - Search: text shorter than `search.minLength` (but not empty) is a hint and fetches nothing; longer text
 *   waits `search.debounceMs` of quiet, then loads page 1 of the results. With `search.required` an empty text
 *   means no list at all (`inactive`: a search-results pager); without it, the unfiltered list.
 * - Filters, sort (the same column toggles its direction, a new column starts ascending) and page size each
 *   reload page 1.
 * - Items change in place without a reload: `item.upsert` (a new one on top, or merged), `item.remove`, and
 *   optimistic `item.patch`, confirmed by `item.commit` or undone by `item.revert`.
 *
 * States: `starting` (transient), `inactive`, `idle`, `hint` (tag `hint`), `debouncing` (tag `debouncing`),
 * `loading` (tag `loading`), `loadingMore` (tag `loadingMore`), `refetching` (tag `refetching`). A failed fetch
 * keeps what was shown, sets `error` and reports a `notice.show` with the input's sentence. Starting a new fetch
 * (search, filter, load) cancels the one in flight.
 *
 * A refusal whose HTTP status the input lists in `quietStatuses` (the attached documents: 404, a conversation that is
 * not this person's) is no failure of the list: it empties the list, keeps the status in `refused` and reports
 * nothing, because the screen says it once in its own words.
 */

export interface PagerItem {
  id: string;
}

export type SortDirection = 'asc' | 'desc';
export interface PagerSort {
  column: string;
  direction: SortDirection;
}

export type PagerFilters = Record<string, unknown>;

/** What the `fetchPage` slot is asked for. */
export interface PageRequest {
  page: number;
  pageSize: number;
  /** The trimmed search text ('' when none). */
  query: string;
  filters: PagerFilters;
  sort: PagerSort | null;
}

/** What the `fetchPage` slot answers. */
export interface PageResult<T extends PagerItem = PagerItem> {
  items: T[];
  page: number;
  total: number;
  totalPages: number;
}

export interface PagerSearch {
  minLength: number;
  debounceMs: number;
  /** An empty text shows no list (a search-results pager) instead of the unfiltered one. */
  required?: boolean;
  /** The page size while a search is shown (the prompt library asks for 50), else the pager's own. */
  pageSize?: number;
}

export interface PagerInput extends ReportsTo {
  pageSize: number;
  mode: 'append' | 'replace';
  search?: PagerSearch;
  filters?: PagerFilters;
  sort?: PagerSort | null;
  /**
   * The sentences of a failed first load and of a failed next page (spec texts); a list without a sentence of its
   * own for the next page says the spec's general one, LOAD_MORE_FAILED.
   */
  messages: { load: string; loadMore?: string };
  /** Load page 1 at start (default true; a required search starts inactive whatever this says). */
  autoLoad?: boolean;
  /** HTTP statuses that empty the list without a toast (`refused`); the screen says them its own way. */
  quietStatuses?: number[];
}

/** An optimistic change in flight: the fields it replaced, restored by `item.revert`. */
interface PendingPatch {
  previous: Record<string, unknown>;
  patch: Record<string, unknown>;
}

export interface PagerContext extends ReportsTo {
  items: PagerItem[];
  /** The page shown last (append: the last page loaded; 0 before any). */
  page: number;
  /** The page the running fetch asks for. */
  targetPage: number;
  pageSize: number;
  total: number;
  totalPages: number;
  mode: PagerInput['mode'];
  search: PagerSearch | null;
  /** The search box as typed. */
  searchText: string;
  /** The trimmed search of the shown (or loading) items. */
  query: string;
  filters: PagerFilters;
  sort: PagerSort | null;
  messages: { load: string; loadMore: string };
  autoLoad: boolean;
  error: string | null;
  quietStatuses: number[];
  /** The status of the quiet refusal that emptied the list (see `quietStatuses`); null once a page came. */
  refused: number | null;
  pending: Record<string, PendingPatch>;
}

export type PagerEvent =
  | { type: 'pager.load' }
  | { type: 'pager.loadMore' }
  | { type: 'pager.goTo'; page: number }
  | { type: 'pager.refetch' }
  | { type: 'pager.search'; text: string }
  | { type: 'pager.filter'; filters: PagerFilters }
  | { type: 'pager.sort'; column: string }
  | { type: 'pager.pageSize'; pageSize: number }
  /** A new item goes on top (`insert`, default true); a known one is merged where it stands. */
  | { type: 'item.upsert'; item: PagerItem; insert?: boolean }
  | { type: 'item.remove'; id: string }
  | { type: 'item.patch'; id: string; patch: Record<string, unknown> }
  /** The change was saved; `item` is the server's copy, when it sent one. */
  | { type: 'item.commit'; id: string; item?: PagerItem }
  | { type: 'item.revert'; id: string };

/** The spec's sentence when a list's next page fails to load ('View More' of the prompt library and of Tips). */
export const LOAD_MORE_FAILED = 'Failed to load more results';

/** The most items one refetch asks for (the API's page-size limit). */
export const MAX_PAGE_SIZE = 100;

/** A click on a column's header: the same column toggles its direction, a new column starts ascending. */
export function nextSort(sort: PagerSort | null, column: string): PagerSort {
  return { column, direction: sort?.column === column && sort.direction === 'asc' ? 'desc' : 'asc' };
}

const trimmed = (text: string) => text.trim();
type FailedFetch = keyof PagerContext['messages'];

/** Appends the items whose id is not there yet (upserts shift the server's pages). */
function appendNew(list: PagerItem[], more: PagerItem[]): PagerItem[] {
  const ids = new Set(list.map((i) => i.id));
  return [...list, ...more.filter((i) => !ids.has(i.id))];
}

const merge = (list: PagerItem[], id: string, patch: Record<string, unknown>) =>
  list.map((i) => (i.id === id ? ({ ...i, ...patch } as PagerItem) : i));

function fromInput(input: PagerInput): PagerContext {
  return {
    items: [],
    page: 0,
    targetPage: 1,
    pageSize: input.pageSize,
    total: 0,
    totalPages: 0,
    mode: input.mode,
    search: input.search ?? null,
    searchText: '',
    query: '',
    filters: input.filters ?? {},
    sort: input.sort ?? null,
    messages: { load: input.messages.load, loadMore: input.messages.loadMore ?? LOAD_MORE_FAILED },
    autoLoad: input.autoLoad ?? true,
    error: null,
    quietStatuses: input.quietStatuses ?? [],
    refused: null,
    pending: {},
    parent: input.parent,
  };
}

/** The page size of what is shown: a search may have its own. */
export const pageSizeOf = (context: PagerContext): number =>
  context.query !== '' && context.search?.pageSize ? context.search.pageSize : context.pageSize;

const request = (context: PagerContext, page: number, pageSize = pageSizeOf(context)): PageRequest => ({
  page,
  pageSize,
  query: context.query,
  filters: context.filters,
  sort: context.sort,
});

/**
 * A fetch that failed: a quiet refusal (`quietStatuses`) empties the list and says nothing; anything else keeps
 * what was shown, sets `error` and reports the sentence of what failed.
 */
const onFetchError = (which: FailedFetch) =>
  [
    { guard: 'isQuietRefusal', target: 'idle', actions: 'refuse' },
    {
      target: 'idle',
      actions: [
        { type: 'fail', params: { which } },
        { type: 'reportFailure', params: { which } },
      ],
    },
  ] as const;

export const pagerMachine = setup({
  types: {
    context: {} as PagerContext,
    events: {} as PagerEvent,
    input: {} as PagerInput,
    emitted: {} as Notice,
    tags: {} as 'loading' | 'loadingMore' | 'refetching' | 'hint' | 'debouncing',
  },
  actors: {
    fetchPage: notProvided<PageResult, PageRequest>('fetchPage'),
  },
  delays: {
    SEARCH_DEBOUNCE: ({ context }) => context.search?.debounceMs ?? 0,
  },
  guards: {
    startsLoaded: ({ context }) => context.autoLoad && !context.search?.required,
    startsInactive: ({ context }) => Boolean(context.search?.required),
    /** A required search with no text has nothing to load. */
    hasSomethingToLoad: ({ context }) => !(context.search?.required && context.query === ''),
    hasMorePages: ({ context }) => context.page < context.totalPages,
    isValidPage: ({ context, event }) => {
      assertEvent(event, 'pager.goTo');
      return Number.isInteger(event.page) && event.page >= 1 && event.page <= Math.max(1, context.totalPages);
    },
    isValidPageSize: ({ event }) => {
      assertEvent(event, 'pager.pageSize');
      return Number.isInteger(event.pageSize) && event.pageSize >= 1 && event.pageSize <= MAX_PAGE_SIZE;
    },
    isEmptySearch: ({ event }) => {
      assertEvent(event, 'pager.search');
      return trimmed(event.text) === '';
    },
    isShortSearch: ({ context, event }) => {
      assertEvent(event, 'pager.search');
      return trimmed(event.text).length < (context.search?.minLength ?? 0);
    },
    isSameSearch: ({ context, event }) => {
      assertEvent(event, 'pager.search');
      return trimmed(event.text) === context.query && context.page > 0;
    },
    isRequiredSearch: ({ context }) => Boolean(context.search?.required),
    isAppendMode: ({ context }) => context.mode === 'append',
    /** Replace mode: the page shown is gone (its last items were deleted), while earlier pages remain. */
    pageGone: ({ context }, params: { result: PageResult }) =>
      context.mode === 'replace' && params.result.items.length === 0 && params.result.totalPages >= 1 && params.result.page > params.result.totalPages,
    isQuietRefusal: ({ context, event }) => context.quietStatuses.includes(answerStatusOf((event as { error?: unknown }).error)),
    isKnownItem: ({ context, event }) => {
      assertEvent(event, ['item.patch', 'item.commit', 'item.revert']);
      return context.items.some((i) => i.id === event.id);
    },
  },
  actions: {
    setSearchText: assign(({ event }) => {
      assertEvent(event, 'pager.search');
      return { searchText: event.text };
    }),
    takeQuery: assign(({ context }) => ({ query: trimmed(context.searchText), targetPage: 1 })),
    clearQuery: assign({ query: '', targetPage: 1 }),
    clearItems: assign({ items: [], page: 0, total: 0, totalPages: 0, error: null, refused: null, pending: {} }),
    refuse: assign(({ event }) => ({
      items: [],
      page: 0,
      total: 0,
      totalPages: 0,
      error: null,
      refused: answerStatusOf((event as { error?: unknown }).error),
      pending: {},
    })),
    clearForHint: assign(({ context }) =>
      context.search?.required ? { query: '', items: [], page: 0, total: 0, totalPages: 0, error: null, refused: null, pending: {} } : {},
    ),
    targetFirstPage: assign({ targetPage: 1 }),
    targetLastPage: assign((_, params: { result: PageResult }) => ({ targetPage: params.result.totalPages })),
    targetPage: assign(({ event }) => {
      assertEvent(event, 'pager.goTo');
      return { targetPage: event.page };
    }),
    setFilters: assign(({ event }) => {
      assertEvent(event, 'pager.filter');
      return { filters: event.filters, targetPage: 1 };
    }),
    toggleSort: assign(({ context, event }) => {
      assertEvent(event, 'pager.sort');
      return { sort: nextSort(context.sort, event.column), targetPage: 1 };
    }),
    setPageSize: assign(({ event }) => {
      assertEvent(event, 'pager.pageSize');
      return { pageSize: event.pageSize, targetPage: 1 };
    }),
    showPage: assign((_, params: { result: PageResult }) => ({
      items: params.result.items,
      page: params.result.page,
      total: params.result.total,
      totalPages: params.result.totalPages,
      error: null,
      refused: null,
      pending: {},
    })),
    appendPage: assign(({ context }, params: { result: PageResult }) => ({
      items: appendNew(context.items, params.result.items),
      page: params.result.page,
      total: params.result.total,
      totalPages: params.result.totalPages,
      error: null,
      refused: null,
    })),
    /** One call brought every page shown so far: the page count is what those items fill. */
    showRefetched: assign(({ context }, params: { result: PageResult }) => ({
      items: params.result.items,
      page:
        context.mode === 'append' ? Math.max(1, Math.ceil(params.result.items.length / pageSizeOf(context))) : params.result.page,
      total: params.result.total,
      totalPages: Math.ceil(params.result.total / pageSizeOf(context)),
      error: null,
      refused: null,
      pending: {},
    })),
    fail: assign(({ context }, params: { which: FailedFetch }) => ({ error: context.messages[params.which] })),
    reportFailure: report(({ context }: { context: PagerContext }, params: { which: FailedFetch }) =>
      notice('error', context.messages[params.which]),
    ),
    upsertItem: assign(({ context, event }) => {
      assertEvent(event, 'item.upsert');
      const known = context.items.some((i) => i.id === event.item.id);
      if (known) return { items: merge(context.items, event.item.id, event.item as unknown as Record<string, unknown>) };
      // A required search with no text shows nothing, so nothing is added to it either.
      if (event.insert === false || (context.search?.required && context.query === '')) return {};
      return { items: [event.item, ...context.items], total: context.total + 1 };
    }),
    removeItem: assign(({ context, event }) => {
      assertEvent(event, 'item.remove');
      if (!context.items.some((i) => i.id === event.id)) return {};
      const { [event.id]: _gone, ...pending } = context.pending;
      return { items: context.items.filter((i) => i.id !== event.id), total: Math.max(0, context.total - 1), pending };
    }),
    patchItem: assign(({ context, event }) => {
      assertEvent(event, 'item.patch');
      const item = context.items.find((i) => i.id === event.id) as unknown as Record<string, unknown>;
      // A second change before the first is saved keeps the original values to go back to.
      const earlier = context.pending[event.id];
      const previous = { ...Object.fromEntries(Object.keys(event.patch).map((k) => [k, item[k]])), ...earlier?.previous };
      return {
        items: merge(context.items, event.id, event.patch),
        pending: { ...context.pending, [event.id]: { previous, patch: { ...earlier?.patch, ...event.patch } } },
      };
    }),
    commitItem: assign(({ context, event }) => {
      assertEvent(event, 'item.commit');
      const { [event.id]: _done, ...pending } = context.pending;
      const items = event.item ? merge(context.items, event.id, event.item as unknown as Record<string, unknown>) : context.items;
      return { items, pending };
    }),
    revertItem: assign(({ context, event }) => {
      assertEvent(event, 'item.revert');
      const change = context.pending[event.id];
      const { [event.id]: _undone, ...pending } = context.pending;
      if (!change) return { pending };
      // Only the fields still showing this change go back: something newer (an upsert) wins.
      const item = context.items.find((i) => i.id === event.id) as unknown as Record<string, unknown>;
      const restore = Object.fromEntries(Object.entries(change.previous).filter(([k]) => item[k] === change.patch[k]));
      return { items: merge(context.items, event.id, restore), pending };
    }),
  },
}).createMachine({
  id: 'pager',
  context: ({ input }) => fromInput(input),
  initial: 'starting',
  on: {
    'pager.load': [{ guard: 'hasSomethingToLoad', target: '.loading', actions: 'targetFirstPage' }],
    'pager.search': [
      { guard: and(['isEmptySearch', 'isRequiredSearch']), target: '.inactive', actions: ['setSearchText', 'clearQuery', 'clearItems'] },
      { guard: 'isEmptySearch', target: '.loading', actions: ['setSearchText', 'clearQuery'] },
      { guard: 'isShortSearch', target: '.hint', actions: 'setSearchText' },
      { guard: 'isSameSearch', target: '.idle', actions: 'setSearchText' },
      { target: '.debouncing', actions: 'setSearchText' },
    ],
    'pager.filter': { target: '.loading', actions: 'setFilters' },
    'pager.sort': { target: '.loading', actions: 'toggleSort' },
    'pager.pageSize': { guard: 'isValidPageSize', target: '.loading', actions: 'setPageSize' },
    'item.upsert': { actions: 'upsertItem' },
    'item.remove': { actions: 'removeItem' },
    'item.patch': { guard: 'isKnownItem', actions: 'patchItem' },
    'item.commit': { actions: 'commitItem' },
    'item.revert': { actions: 'revertItem' },
  },
  states: {
    /** Transient: never observed. */
    starting: {
      description: 'The list starts: it loads its first page, or waits for a search it requires (never seen).',
      always: [
        { guard: 'startsInactive', target: 'inactive', actions: 'clearItems' },
        { guard: 'startsLoaded', target: 'loading' },
        { target: 'idle' },
      ],
    },
    /** A required search with no text: no items, nothing loading. */
    inactive: { description: 'A search-results list with no search typed: nothing is shown.' },
    idle: {
      description: 'The list shows its items (or says it has none).',
      on: {
        'pager.loadMore': { guard: 'hasMorePages', target: 'loadingMore' },
        'pager.goTo': { guard: 'isValidPage', target: 'loading', actions: 'targetPage' },
        'pager.refetch': { guard: 'hasSomethingToLoad', target: 'refetching' },
      },
    },
    /** Too short to search: a required search shows nothing, another keeps the list it had. */
    hint: {
      description: 'The search is too short to run: the list says how many characters it needs.',
      tags: ['hint'],
      entry: 'clearForHint',
    },
    debouncing: {
      description: 'The person is typing a search: the list waits for a moment of quiet before it asks.',
      tags: ['debouncing'],
      after: { SEARCH_DEBOUNCE: { target: 'loading', actions: 'takeQuery' } },
    },
    loading: {
      description: 'A page of the list is being loaded (a spinner shows; what was shown stays).',
      tags: ['loading'],
      invoke: {
        id: 'fetchPage',
        src: 'fetchPage',
        input: ({ context }) => request(context, context.targetPage),
        onDone: { target: 'idle', actions: { type: 'showPage', params: ({ event }) => ({ result: event.output }) } },
        onError: onFetchError('load'),
      },
    },
    loadingMore: {
      description: 'The next page is being added below the items shown (View More).',
      tags: ['loadingMore'],
      invoke: {
        id: 'fetchPage',
        src: 'fetchPage',
        input: ({ context }) => request(context, context.page + 1),
        onDone: [
          {
            guard: 'isAppendMode',
            target: 'idle',
            actions: { type: 'appendPage', params: ({ event }) => ({ result: event.output }) },
          },
          { target: 'idle', actions: { type: 'showPage', params: ({ event }) => ({ result: event.output }) } },
        ],
        onError: onFetchError('loadMore'),
      },
    },
    refetching: {
      description: 'What is shown is being read again without a spinner.',
      tags: ['refetching'],
      invoke: {
        id: 'fetchPage',
        src: 'fetchPage',
        // Append mode: every page shown so far, in one call; replace mode: the page shown.
        input: ({ context }) =>
          context.mode === 'append'
            ? request(context, 1, Math.min(MAX_PAGE_SIZE, Math.max(1, context.page) * pageSizeOf(context)))
            : request(context, Math.max(1, context.page)),
        onDone: [
          // Reading the page again after a delete found it empty: show the last page there still is.
          {
            guard: { type: 'pageGone', params: ({ event }) => ({ result: event.output }) },
            target: 'loading',
            actions: { type: 'targetLastPage', params: ({ event }) => ({ result: event.output }) },
          },
          { target: 'idle', actions: { type: 'showRefetched', params: ({ event }) => ({ result: event.output }) } },
        ],
        onError: onFetchError('load'),
      },
    },
  },
});

export type PagerMachine = typeof pagerMachine;

/** What a list view reads from a pager snapshot (one narrow selector for every list). */
export interface PagerView<T extends PagerItem = PagerItem> {
  items: T[];
  total: number;
  page: number;
  totalPages: number;
  searchText: string;
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  /** Typed text too short to search. */
  hint: boolean;
  /** Waiting for the typing to stop, or loading the first page: the view shows a spinner. */
  searching: boolean;
  inactive: boolean;
  error: string | null;
  /** The status of a quiet refusal (`quietStatuses`) that emptied the list, else null. */
  refused: number | null;
}

export function pagerView<T extends PagerItem>(snapshot: {
  context: PagerContext;
  hasTag(tag: string): boolean;
  matches(value: string): boolean;
}): PagerView<T> {
  const { context } = snapshot;
  return {
    items: context.items as T[],
    total: context.total,
    page: context.page,
    totalPages: context.totalPages,
    searchText: context.searchText,
    loading: snapshot.hasTag('loading'),
    loadingMore: snapshot.hasTag('loadingMore'),
    hasMore: context.page < context.totalPages,
    hint: snapshot.hasTag('hint'),
    searching: snapshot.hasTag('debouncing') || (snapshot.hasTag('loading') && context.query !== ''),
    inactive: snapshot.matches('inactive'),
    error: context.error,
    refused: context.refused,
  };
}

/** Shallow equality for `useSelector(…, pagerView, samePagerView)`. */
export const samePagerView = (a: PagerView, b: PagerView) =>
  (Object.keys(a) as Array<keyof PagerView>).every((k) => a[k] === b[k]);
