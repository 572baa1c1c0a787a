import { describe, it, vi, afterEach } from 'vitest';
import { expect } from './support/expect';
import { createActor, fromPromise, type EventFrom, type SnapshotFrom } from 'xstate';
import {
  LOAD_MORE_FAILED,
  pagerMachine,
  pagerView,
  type PageRequest,
  type PageResult,
  type PagerInput,
} from '../../machines/pager.machine';
import { notice, type Notice } from '../../machines/notice';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof pagerMachine>;
type Ev = EventFrom<typeof pagerMachine>;

const DEBOUNCE = 'xstate.after.SEARCH_DEBOUNCE.pager.debouncing';
const messages = { load: 'Failed to fetch things', loadMore: 'Failed to load more things' };

/** The search-results pager of the conversation list: append, required search of 3+ characters. */
const searchInput: PagerInput = { pageSize: 10, mode: 'append', search: { minLength: 3, debounceMs: 1500, required: true }, messages };
/**
 * An admin table: one page at a time, optional search of 2+ characters, filters and sort; a 404 is a quiet refusal
 * (as the attached documents' list says a conversation not found), which the other inputs report as a failure.
 */
const tableInput: PagerInput = {
  pageSize: 10,
  mode: 'replace',
  search: { minLength: 2, debounceMs: 2000 },
  filters: { status: 'all' },
  messages,
  quietStatuses: [404],
};
/** A list that waits to be told to load. */
const lazyInput: PagerInput = { pageSize: 10, mode: 'append', messages, autoLoad: false };

const first: PageResult = { items: [{ id: 'i1' }, { id: 'i2' }], page: 1, total: 25, totalPages: 3 };
const last: PageResult = { items: [{ id: 'i3' }], page: 3, total: 21, totalPages: 3 };

let requests: PageRequest[] = [];
let notices: Notice[] = [];
let noticesSeen = 0;
let prev: Snap | null = null;

const testMachine = () =>
  pagerMachine.provide({
    actors: {
      fetchPage: pendingActor<PageResult, PageRequest>((input) => requests.push(input)),
    },
  });

/** The server refused with 404 (the thing the list belongs to is not this person's): the status rides on the error. */
const refusal = Object.assign(new Error('HTTP 404'), { status: 404 });

/** A page read again after its last items were deleted: empty, beyond the last page there is now. */
const gone: PageResult = { items: [], page: 2, total: 10, totalPages: 1 };

const fetchOutcomes = (s?: Snap): Ev[] => [
  { type: 'xstate.done.actor.fetchPage', output: first } as never,
  { type: 'xstate.done.actor.fetchPage', output: last } as never,
  ...(s?.matches('refetching') ? [{ type: 'xstate.done.actor.fetchPage', output: gone } as never] : []),
  { type: 'xstate.error.actor.fetchPage', error: new Error('Network Error') } as never,
  { type: 'xstate.error.actor.fetchPage', error: refusal } as never,
];

function eventsFor(s: Snap): Ev[] {
  const search: Ev[] = [
    { type: 'pager.search', text: '' },
    { type: 'pager.search', text: 'ab' },
    { type: 'pager.search', text: ' abc ' },
  ];
  // Item changes are the same self-transition in every state: try them where a list is shown or absent.
  const items: Ev[] = [
    { type: 'item.upsert', item: { id: 'new' } },
    { type: 'item.upsert', item: { id: 'i1' }, insert: false },
    { type: 'item.remove', id: 'i1' },
    { type: 'item.patch', id: 'i1', patch: { title: 'Edited' } },
    { type: 'item.commit', id: 'i1' },
    { type: 'item.revert', id: 'i1' },
  ];
  switch (s.value) {
    case 'idle':
      return [
        ...search,
        ...items,
        { type: 'pager.load' },
        { type: 'pager.loadMore' },
        { type: 'pager.goTo', page: 2 },
        { type: 'pager.refetch' },
        { type: 'pager.filter', filters: { status: 'active' } },
        { type: 'pager.sort', column: 'name' },
        { type: 'pager.pageSize', pageSize: 25 },
      ];
    case 'inactive':
      return [...search, ...items, { type: 'pager.load' }];
    case 'debouncing':
      return [...search, { type: DEBOUNCE } as never];
    case 'loading':
    case 'loadingMore':
    case 'refetching':
      return [...search, { type: 'pager.load' }, ...fetchOutcomes(s)];
    default:
      return [...search, { type: 'pager.load' }];
  }
}

/** Only what the guards read: more pages, a query, items loaded, item i1 there and pending. */
const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.page < s.context.totalPages,
    s.context.query,
    s.context.page > 0,
    s.context.items.some((i) => i.id === 'i1'),
    Boolean(s.context.pending.i1),
  ]);

const check = (fn: (s: Snap, e: Ev | null, p: Snap | null) => void) => (s: Snap, e: { type: string } | null) => {
  const p = prev;
  const event = e as Ev | null;
  const fresh = notices.slice(noticesSeen);
  noticesSeen = notices.length;
  const view = pagerView(s);
  expect(view.hasMore).toBe(s.context.page < s.context.totalPages);
  expect(view.loading).toBe(s.matches('loading'));
  expect(view.hint).toBe(s.matches('hint'));
  expect(s.context.total).toBeGreaterThanOrEqual(0);
  expect(view.refused).toBe(s.context.refused);
  const failure = (event as { error?: unknown } | null)?.error;
  if ((event?.type as string | undefined) === 'xstate.error.actor.fetchPage' && p && failure === refusal && s.context.quietStatuses.includes(404)) {
    // A quiet refusal: no toast, no sentence, an empty list that says why.
    expect(fresh).toEqual([]);
    expect(s.context).toMatchObject({ items: [], total: 0, page: 0, totalPages: 0, error: null, refused: 404, pending: {} });
    expect(s.matches('idle')).toBe(true);
  } else if ((event?.type as string | undefined) === 'xstate.error.actor.fetchPage' && p) {
    // Failures are reported once, with the input's sentence for what failed.
    const which = p.matches('loadingMore') ? messages.loadMore : messages.load;
    expect(fresh).toEqual([{ type: 'notice.show', tone: 'error', text: which }]);
    expect(s.context.error).toBe(which);
    expect(s.context.items).toBe(p.context.items);
    expect(s.context.refused).toBe(p.context.refused);
  } else {
    expect(fresh).toEqual([]);
  }
  if ((event?.type as string | undefined) === 'xstate.done.actor.fetchPage') {
    // A page read again that is gone: the last page there still is loads (replace mode); any other answer is shown.
    const output = (event as unknown as { output: PageResult }).output;
    if (output === gone && s.context.mode === 'replace') {
      expect(s.matches('loading')).toBe(true);
      expect(s.context.targetPage).toBe(gone.totalPages);
    } else {
      expect(s.context.error).toBeNull();
      expect(s.context.refused).toBeNull();
    }
  }
  if (p && event?.type === 'item.patch' && p.context.items.some((i) => i.id === 'i1')) {
    expect(s.context.items.find((i) => i.id === 'i1')).toMatchObject({ title: 'Edited' });
  }
  if (p && event?.type === 'item.revert' && p.context.pending.i1) {
    expect(s.context.items.find((i) => i.id === 'i1')).toEqual({ id: 'i1' });
    expect(s.context.pending.i1).toBeUndefined();
  }
  if (p && event?.type === 'item.remove') {
    expect(s.context.items.some((i) => i.id === 'i1')).toBe(false);
    if (p.context.items.some((i) => i.id === 'i1')) expect(s.context.total).toBe(Math.max(0, p.context.total - 1));
  }
  if (p && event?.type === 'item.upsert' && event.item.id === 'new' && !p.context.items.some((i) => i.id === 'new')) {
    if (s.context.search?.required && s.context.query === '') {
      // No search, no list: nothing to add to.
      expect(s.context.items).toEqual([]);
    } else {
      expect(s.context.items[0]).toEqual({ id: 'new' });
      expect(s.context.total).toBe(p.context.total + 1);
    }
  }
  fn(s, event, p);
  prev = s;
};

const lastRequest = () => requests.at(-1)!;

runModelTest({
  name: 'pager',
  machine: pagerMachine,
  testMachine,
  onActor: (actor) => {
    requests = [];
    notices = [];
    noticesSeen = 0;
    prev = null;
    actor.on('notice.show', (ev) => notices.push(ev as Notice));
  },
  inputs: [searchInput, tableInput, lazyInput],
  events: eventsFor,
  key,
  simpleKey: (s) => JSON.stringify(s.value),
  // loading, loadingMore and refetching all fail into idle with the same key: keep one path per edge.
  edgeKeys: true,
  checks: {
    inactive: check((s) => {
      expect(s.context.search?.required).toBe(true);
      expect(s.context.items).toEqual([]);
      expect(s.context.query).toBe('');
      expect(s.children.fetchPage).toBeUndefined();
    }),
    idle: check((s, e, p) => {
      expect(s.children.fetchPage).toBeUndefined();
      if ((e?.type as string | undefined) === 'xstate.done.actor.fetchPage' && p?.matches('loadingMore') && s.context.mode === 'append') {
        // Appended, not replaced: what was there stays first.
        expect(s.context.items.slice(0, p.context.items.length)).toEqual(p.context.items);
      }
      if (e?.type === 'pager.search') expect(s.context.query).toBe(e.text.trim());
    }),
    hint: check((s) => {
      expect(s.context.searchText.trim().length).toBeGreaterThan(0);
      expect(s.context.searchText.trim().length).toBeLessThan(s.context.search?.minLength ?? 0);
      if (s.context.search?.required) {
        expect(s.context.items).toEqual([]);
        expect(s.context.query).toBe('');
      }
    }),
    debouncing: check((s) => {
      expect(s.context.searchText.trim().length).toBeGreaterThanOrEqual(s.context.search?.minLength ?? 0);
      expect(s.children.fetchPage).toBeUndefined();
    }),
    loading: check((s, e, p) => {
      expect(s.children.fetchPage).toBeDefined();
      const r = lastRequest();
      expect(r).toEqual({ page: s.context.targetPage, pageSize: s.context.pageSize, query: s.context.query, filters: s.context.filters, sort: s.context.sort });
      expect(r.page).toBe(e?.type === 'pager.goTo' ? e.page : 1);
      if ((e?.type as string | undefined) === DEBOUNCE) expect(r.query).toBe(s.context.searchText.trim());
      if (e?.type === 'pager.sort') {
        // The same column toggles; a new one starts ascending.
        const before = p?.context.sort;
        expect(r.sort).toEqual({ column: 'name', direction: before?.column === 'name' && before.direction === 'asc' ? 'desc' : 'asc' });
      }
      if (e?.type === 'pager.filter') expect(r.filters).toEqual({ status: 'active' });
      if (e?.type === 'pager.pageSize') expect(r.pageSize).toBe(25);
    }),
    loadingMore: check((s) => {
      expect(s.children.fetchPage).toBeDefined();
      expect(lastRequest().page).toBe(s.context.page + 1);
      expect(s.context.page).toBeLessThan(s.context.totalPages);
    }),
    refetching: check((s) => {
      expect(s.children.fetchPage).toBeDefined();
      const r = lastRequest();
      if (s.context.mode === 'append') {
        expect(r).toMatchObject({ page: 1, pageSize: Math.min(100, Math.max(1, s.context.page) * s.context.pageSize) });
      } else {
        expect(r).toMatchObject({ page: Math.max(1, s.context.page), pageSize: s.context.pageSize });
      }
    }),
  },
});

describe('pager (examples)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const fakeServer = (all: Array<{ id: string; title: string }>) =>
    pagerMachine.provide({
      actors: {
        fetchPage: fromPromise<PageResult, PageRequest>(async ({ input }) => {
          const hits = all.filter((i) => i.title.includes(input.query));
          const start = (input.page - 1) * input.pageSize;
          return { items: hits.slice(start, start + input.pageSize), page: input.page, total: hits.length, totalPages: Math.ceil(hits.length / input.pageSize) };
        }),
      },
    });
  const rows = Array.from({ length: 23 }, (_, i) => ({ id: `c${i}`, title: i % 2 ? `odd ${i}` : `even ${i}` }));

  it('loads more pages until there are none, appending', async () => {
    const actor = createActor(fakeServer(rows), { input: { pageSize: 10, mode: 'append', messages } }).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches('idle')).toBe(true));
    actor.send({ type: 'pager.loadMore' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.page).toBe(2));
    actor.send({ type: 'pager.loadMore' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.items).toHaveLength(23));
    expect(actor.getSnapshot().can({ type: 'pager.loadMore' })).toBe(false);
  });

  it('searches after the debounce only, with the latest text', async () => {
    vi.useFakeTimers();
    const actor = createActor(fakeServer(rows), { input: searchInput }).start();
    expect(actor.getSnapshot().matches('inactive')).toBe(true);
    actor.send({ type: 'pager.search', text: 'ev' });
    expect(pagerView(actor.getSnapshot()).hint).toBe(true);
    actor.send({ type: 'pager.search', text: 'eve' });
    await vi.advanceTimersByTimeAsync(1000);
    actor.send({ type: 'pager.search', text: 'odd' });
    await vi.advanceTimersByTimeAsync(1499);
    expect(actor.getSnapshot().matches('debouncing')).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(actor.getSnapshot().matches('idle')).toBe(true));
    expect(actor.getSnapshot().context.items.every((i) => (i as { title?: string }).title?.startsWith('odd'))).toBe(true);
    expect(actor.getSnapshot().context.total).toBe(11);
    actor.send({ type: 'pager.search', text: '' });
    expect(actor.getSnapshot().matches('inactive')).toBe(true);
    expect(actor.getSnapshot().context.items).toEqual([]);
  });

  it('asks for the search page size while a search is shown, and its own again once the search is cleared', async () => {
    vi.useFakeTimers();
    const many = Array.from({ length: 120 }, (_, i) => ({ id: `p${i}`, title: i % 2 ? `odd ${i}` : `even ${i}` }));
    const input: PagerInput = { pageSize: 10, mode: 'append', search: { minLength: 1, debounceMs: 1500, pageSize: 50 }, messages };
    const actor = createActor(fakeServer(many), { input }).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches('idle')).toBe(true));
    expect(actor.getSnapshot().context.items).toHaveLength(10);
    actor.send({ type: 'pager.search', text: 'odd' });
    await vi.advanceTimersByTimeAsync(1500);
    await vi.waitFor(() => expect(actor.getSnapshot().matches('idle')).toBe(true));
    // 60 odd rows: 50 on the first page of results, and one more page to load.
    expect(actor.getSnapshot().context.items).toHaveLength(50);
    expect(actor.getSnapshot().context.totalPages).toBe(2);
    actor.send({ type: 'pager.loadMore' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.items).toHaveLength(60));
    expect(actor.getSnapshot().can({ type: 'pager.loadMore' })).toBe(false);
    actor.send({ type: 'pager.search', text: '' });
    await vi.waitFor(() => expect(actor.getSnapshot().matches('idle')).toBe(true));
    expect(actor.getSnapshot().context.items).toHaveLength(10);
    expect(actor.getSnapshot().context.totalPages).toBe(12);
  });

  it("says the spec's 'Failed to load more results' when a next page fails and the list has no sentence of its own", async () => {
    let failNext = false;
    const flaky = pagerMachine.provide({
      actors: {
        fetchPage: fromPromise<PageResult, PageRequest>(async ({ input }) => {
          if (failNext) throw new Error('Network Error');
          return { items: rows.slice((input.page - 1) * 10, input.page * 10), page: input.page, total: rows.length, totalPages: 3 };
        }),
      },
    });
    const actor = createActor(flaky, { input: { pageSize: 10, mode: 'append', messages: { load: 'Failed to fetch things' } } }).start();
    const notices: unknown[] = [];
    actor.on('notice.show', (n) => notices.push(n));
    await vi.waitFor(() => expect(actor.getSnapshot().matches('idle')).toBe(true));
    failNext = true;
    actor.send({ type: 'pager.loadMore' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.error).toBe(LOAD_MORE_FAILED));
    expect(LOAD_MORE_FAILED).toBe('Failed to load more results');
    expect(notices).toEqual([notice('error', 'Failed to load more results')]);
    // What was shown stays.
    expect(actor.getSnapshot().context.items).toHaveLength(10);
  });

  it('empties the list without a toast on a quiet refusal, and forgets it once a page comes', async () => {
    let refuse = false;
    const guarded = pagerMachine.provide({
      actors: {
        fetchPage: fromPromise<PageResult, PageRequest>(async () => {
          if (refuse) throw Object.assign(new Error('HTTP 404'), { status: 404 });
          return { items: rows.slice(0, 3), page: 1, total: 3, totalPages: 1 };
        }),
      },
    });
    const actor = createActor(guarded, { input: { pageSize: 100, mode: 'append', messages, quietStatuses: [404] } }).start();
    const notices: unknown[] = [];
    actor.on('notice.show', (n) => notices.push(n));
    await vi.waitFor(() => expect(pagerView(actor.getSnapshot()).total).toBe(3));
    refuse = true;
    actor.send({ type: 'pager.load' });
    await vi.waitFor(() => expect(pagerView(actor.getSnapshot()).refused).toBe(404));
    expect(pagerView(actor.getSnapshot())).toMatchObject({ items: [], total: 0, error: null, loading: false });
    expect(notices).toEqual([]);
    refuse = false;
    actor.send({ type: 'pager.load' });
    await vi.waitFor(() => expect(pagerView(actor.getSnapshot()).total).toBe(3));
    expect(pagerView(actor.getSnapshot()).refused).toBeNull();
  });

  it('puts an optimistic change back when it fails, unless something newer replaced it', async () => {
    const actor = createActor(fakeServer(rows), { input: { pageSize: 10, mode: 'append', messages } }).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches('idle')).toBe(true));
    actor.send({ type: 'item.patch', id: 'c0', patch: { title: 'renamed' } });
    actor.send({ type: 'item.patch', id: 'c0', patch: { title: 'renamed twice' } });
    actor.send({ type: 'item.revert', id: 'c0' });
    expect(actor.getSnapshot().context.items[0]).toEqual({ id: 'c0', title: 'even 0' });
    actor.send({ type: 'item.patch', id: 'c2', patch: { title: 'mine' } });
    actor.send({ type: 'item.upsert', item: { id: 'c2', title: 'from elsewhere' } as never });
    actor.send({ type: 'item.revert', id: 'c2' });
    expect(actor.getSnapshot().context.items.find((i) => i.id === 'c2')).toEqual({ id: 'c2', title: 'from elsewhere' });
  });
});
