import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type EventFrom, type SnapshotFrom } from 'xstate';
import {
  conversationListMachine,
  DELETE_FAILED,
  FETCH_FAILED,
  LOAD_MORE_FAILED,
  RENAME_FAILED,
  SEARCH_FAILED,
  SEARCH_MORE_FAILED,
  type ConversationListEmitted,
  type ConversationListEvent,
} from '../../machines/conversation-list.machine';
import {
  CONVERSATION_PAGE_SIZE,
  SEARCH_DEBOUNCE_MS,
  SEARCH_MIN_CHARS,
  SEARCH_PAGE_SIZE,
  SEARCH_TOO_SHORT,
  TITLE_EMPTY,
  TITLE_MAX_LENGTH,
  TITLE_TOO_LONG,
} from '../../contract/chat-constants';
import type { Conversation, ConversationList, ConversationSearchResult } from '../../contract/chat';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof conversationListMachine>;
type Ev = EventFrom<typeof conversationListMachine>;
type Value = { list: string; search: string; operation: string };

const conv = (id: string, title = `Conversation ${id}`): Conversation => ({
  id, title, created_at: '2025-01-01T10:00:00.000Z', updated_at: '2025-01-01T10:00:00.000Z',
});
const ids = (n: number, from = 1) => Array.from({ length: n }, (_, i) => conv(`c${from + i}`));
const page1: ConversationList = { conversations: ids(10), page: 1, page_size: 10, total: 15, total_pages: 2 };
// Page 2 repeats c10 (an upsert shifted the pages): it is not appended twice.
const page2: ConversationList = { conversations: [conv('c10'), ...ids(5, 11)], page: 2, page_size: 10, total: 15, total_pages: 2 };
const refreshed: ConversationList = { conversations: ids(15), page: 1, page_size: 20, total: 15, total_pages: 1 };
const hits1: ConversationSearchResult = { conversations: [conv('c2'), conv('s1')], page: 1, page_size: 10, total: 3 };
const hits2: ConversationSearchResult = { conversations: [conv('s2'), conv('c2')], page: 2, page_size: 10, total: 3 };
const fresh = conv('n1', 'New Conversation');
const AFTER = 'xstate.after.SEARCH_DEBOUNCE.conversationList.search.debouncing';

// --- fakes and what they saw ---
let fetchInputs: Array<{ page: number; pageSize: number }> = [];
let searchInputs: Array<{ query: string; page: number; pageSize: number }> = [];
let renameInputs: Array<{ id: string; title: string }> = [];
let deleteInputs: Array<{ id: string }> = [];
let emitted: ConversationListEmitted[] = [];

const never = <T,>() => new Promise<T>(() => {});
const testMachine = () =>
  conversationListMachine.provide({
    actors: {
      fetchConversations: fromPromise<ConversationList, { page: number; pageSize: number }>(({ input }) => {
        fetchInputs.push(input);
        return never();
      }),
      searchConversations: fromPromise<ConversationSearchResult, { query: string; page: number; pageSize: number }>(({ input }) => {
        searchInputs.push(input);
        return never();
      }),
      renameConversation: fromPromise<Conversation | void, { id: string; title: string }>(({ input }) => {
        renameInputs.push(input);
        return never();
      }),
      deleteConversation: fromPromise<void, { id: string }>(({ input }) => {
        deleteInputs.push(input);
        return never();
      }),
    },
  });

/** The conversation the person acts on: the first one shown (search results while searching). */
const target = (s: Snap) => (s.hasTag('searchActive') ? s.context.searchResults[0] : s.context.conversations[0])?.id ?? 'c1';

const eventsFor = (s: Snap): Ev[] => {
  const v = s.value as Value;
  const out: Ev[] = [
    { type: 'conversation.upsert', conversation: fresh },
    { type: 'conversation.upsert', conversation: { ...conv('c3'), title: 'Renamed in chat' } },
    { type: 'list.load' },
    { type: 'search.change', text: '' },
    { type: 'search.change', text: ' tr ' },
    { type: 'search.change', text: 'trip' },
  ];
  const fetchDone = v.list === 'loadingMore' ? page2 : v.list === 'refreshing' ? refreshed : page1;
  if (v.list === 'idle') out.push({ type: 'list.loadMore' }, { type: 'list.refresh' });
  else {
    out.push(
      { type: 'xstate.done.actor.fetchConversations', output: fetchDone } as never,
      { type: 'xstate.error.actor.fetchConversations', error: new Error('500') } as never,
    );
  }
  if (v.search === 'debouncing') out.push({ type: AFTER } as never);
  if (v.search === 'results') out.push({ type: 'search.loadMore' });
  if (v.search === 'searching' || v.search === 'loadingMore') {
    out.push(
      { type: 'xstate.done.actor.searchConversations', output: v.search === 'searching' ? hits1 : hits2 } as never,
      { type: 'xstate.error.actor.searchConversations', error: new Error('500') } as never,
    );
  }
  const id = target(s);
  if (v.operation === 'idle') {
    out.push(
      { type: 'conversation.rename', id, title: '  Budget 2025 ' },
      { type: 'conversation.rename', id, title: ' \t ' },
      { type: 'conversation.rename', id, title: 'x'.repeat(TITLE_MAX_LENGTH + 1) },
      { type: 'conversation.delete', id },
    );
  }
  if (v.operation === 'renaming') {
    const saved = { ...conv(s.context.renamingId ?? id), title: 'Budget 2025', updated_at: '2025-01-02T10:00:00.000Z' };
    out.push(
      { type: 'xstate.done.actor.renameConversation', output: saved } as never,
      { type: 'xstate.error.actor.renameConversation', error: new Error('Title taken') } as never,
    );
  }
  if (v.operation === 'deleting') {
    out.push(
      { type: 'xstate.done.actor.deleteConversation', output: undefined } as never,
      { type: 'xstate.error.actor.deleteConversation', error: new Error('Not found') } as never,
    );
  }
  return out;
};

// --- invariants after every step ---
let prev: Snap | null = null;
let emittedSeen = 0;
const counts = { fetch: 0, search: 0, rename: 0, del: 0 };
const all = (s: Snap) => [...s.context.conversations, ...s.context.searchResults];

function checkAll(s: Snap, e: { type: string } | null) {
  const c = s.context;
  const v = s.value as Value;
  const p = prev;
  const pv = p?.value as Value | undefined;
  const newEmitted = emitted.slice(emittedSeen);
  emittedSeen = emitted.length;
  const started = {
    fetch: fetchInputs.length - counts.fetch,
    search: searchInputs.length - counts.search,
    rename: renameInputs.length - counts.rename,
    del: deleteInputs.length - counts.del,
  };
  Object.assign(counts, { fetch: fetchInputs.length, search: searchInputs.length, rename: renameInputs.length, del: deleteInputs.length });

  // Tags are exactly the documented ones.
  expect(s.hasTag('loading')).toBe(v.list === 'loading');
  expect(s.hasTag('loadingMore')).toBe(v.list === 'loadingMore');
  expect(s.hasTag('refreshing')).toBe(v.list === 'refreshing');
  expect(s.hasTag('searchActive')).toBe(v.search !== 'inactive');
  expect(s.hasTag('searchHint')).toBe(v.search === 'hint');
  expect(s.hasTag('searching')).toBe(v.search === 'debouncing' || v.search === 'searching');
  expect(s.hasTag('searchLoadingMore')).toBe(v.search === 'loadingMore');
  expect(s.hasTag('renaming')).toBe(v.operation === 'renaming');
  expect(s.hasTag('deleting')).toBe(v.operation === 'deleting');

  // The search state follows the typed text.
  const typed = c.searchText.trim().length;
  expect(v.search === 'inactive').toBe(typed === 0);
  expect(v.search === 'hint').toBe(typed > 0 && typed < SEARCH_MIN_CHARS);
  if (v.search === 'inactive' || v.search === 'hint') expect(c.searchResults).toEqual([]);

  // Guards, as the view sees them through can().
  expect(s.can({ type: 'list.loadMore' })).toBe(v.list === 'idle' && c.page < c.totalPages);
  expect(s.can({ type: 'search.loadMore' })).toBe(v.search === 'results' && c.searchResults.length < c.searchTotal);
  expect(s.can({ type: 'conversation.delete', id: 'c1' })).toBe(v.operation === 'idle');
  expect(s.can({ type: 'conversation.rename', id: 'c1', title: 'Ok' })).toBe(v.operation === 'idle');
  expect(c.renamingId !== null).toBe(v.operation === 'renaming');
  expect(c.deletingId !== null).toBe(v.operation === 'deleting');

  // No duplicates, whatever the pages and upserts did.
  expect(new Set(c.conversations.map((x) => x.id)).size).toBe(c.conversations.length);
  expect(new Set(c.searchResults.map((x) => x.id)).size).toBe(c.searchResults.length);

  // Requests: exactly one per entered loading state, with the right page.
  const entered = (region: keyof Value, state: string) => v[region] === state && pv?.[region] !== state;
  if (v.list !== 'idle' && (pv?.list !== v.list || e?.type === 'list.load')) {
    expect(started.fetch).toBe(1);
    const input = fetchInputs.at(-1);
    if (v.list === 'loading') expect(input).toEqual({ page: 1, pageSize: CONVERSATION_PAGE_SIZE });
    if (v.list === 'loadingMore') expect(input).toEqual({ page: p!.context.page + 1, pageSize: CONVERSATION_PAGE_SIZE });
    if (v.list === 'refreshing') expect(input).toEqual({ page: 1, pageSize: Math.min(100, Math.max(1, c.page) * CONVERSATION_PAGE_SIZE) });
  } else expect(started.fetch).toBe(0);
  if (entered('search', 'searching') || entered('search', 'loadingMore')) {
    expect(started.search).toBe(1);
    expect(searchInputs.at(-1)).toEqual(
      v.search === 'searching'
        ? { query: c.searchText.trim(), page: 1, pageSize: SEARCH_PAGE_SIZE }
        : { query: c.searchQuery, page: c.searchPage + 1, pageSize: SEARCH_PAGE_SIZE },
    );
  } else expect(started.search).toBe(0);
  expect(started.rename).toBe(v.operation === 'renaming' && pv?.operation !== 'renaming' ? 1 : 0);
  expect(started.del).toBe(v.operation === 'deleting' && pv?.operation !== 'deleting' ? 1 : 0);

  // Exactly the expected emitted events.
  const expected: ConversationListEmitted[] = [];
  if (e?.type === 'xstate.error.actor.fetchConversations') {
    expected.push({ type: 'list.failed', message: pv!.list === 'loadingMore' ? LOAD_MORE_FAILED : FETCH_FAILED });
  }
  if (e?.type === 'xstate.error.actor.searchConversations') {
    expected.push({ type: 'list.failed', message: pv!.search === 'loadingMore' ? SEARCH_MORE_FAILED : SEARCH_FAILED });
  }
  if (e?.type === 'conversation.rename' && pv?.operation === 'idle') {
    const ev = e as Extract<ConversationListEvent, { type: 'conversation.rename' }>;
    const trimmed = ev.title.trim();
    if (!trimmed) expected.push({ type: 'rename.invalid', id: ev.id, message: TITLE_EMPTY });
    else if (trimmed.length > TITLE_MAX_LENGTH) expected.push({ type: 'rename.invalid', id: ev.id, message: TITLE_TOO_LONG });
  }
  if (e?.type === 'xstate.done.actor.renameConversation') expected.push({ type: 'rename.succeeded', id: p!.context.renamingId!, title: 'Budget 2025' });
  if (e?.type === 'xstate.error.actor.renameConversation') {
    expected.push({ type: 'rename.failed', id: p!.context.renamingId!, title: 'Budget 2025', detail: 'Title taken' });
  }
  if (e?.type === 'xstate.done.actor.deleteConversation') expected.push({ type: 'deleted', id: p!.context.deletingId! });
  if (e?.type === 'xstate.error.actor.deleteConversation') expected.push({ type: 'delete.failed', id: p!.context.deletingId!, detail: 'Not found' });
  expect(newEmitted).toEqual(expected);

  // What each event did to the lists.
  if (e?.type === 'xstate.done.actor.fetchConversations') {
    if (pv!.list === 'loadingMore') {
      expect(c.conversations.slice(0, p!.context.conversations.length)).toEqual(p!.context.conversations);
      expect(c.page).toBe(2);
    } else {
      expect(c.conversations).toEqual((pv!.list === 'refreshing' ? refreshed : page1).conversations);
    }
    expect(c.error).toBeNull();
  }
  if (e?.type === 'xstate.error.actor.fetchConversations') {
    expect(c.conversations).toEqual(p!.context.conversations);
    expect(c.error).toBe(expected[0].type === 'list.failed' ? expected[0].message : null);
  }
  if (e?.type === 'xstate.done.actor.searchConversations' && pv!.search === 'loadingMore') {
    const before = p!.context.searchResults.map((x) => x.id);
    expect(c.searchResults.map((x) => x.id)).toEqual([...before, ...hits2.conversations.map((x) => x.id).filter((id) => !before.includes(id))]);
  }
  if (e?.type === 'xstate.error.actor.searchConversations' && pv!.search === 'searching') expect(c.searchResults).toEqual([]);
  if (e?.type === 'conversation.upsert') {
    const ev = e as Extract<ConversationListEvent, { type: 'conversation.upsert' }>;
    const before = p!.context.conversations.find((x) => x.id === ev.conversation.id);
    expect(c.conversations[0]).toEqual({ ...before, ...ev.conversation });
    expect(c.conversations.length).toBe(p!.context.conversations.length + (before ? 0 : 1));
    expect(c.total).toBe(p!.context.total + (before ? 0 : 1));
    const hit = c.searchResults.find((x) => x.id === ev.conversation.id);
    if (hit) expect(hit.title).toBe(ev.conversation.title);
  }
  if (e?.type === 'conversation.rename' && v.operation === 'renaming' && pv?.operation === 'idle') {
    // Applied at once in both lists; the call gets the trimmed title.
    const ev = e as Extract<ConversationListEvent, { type: 'conversation.rename' }>;
    expect(renameInputs.at(-1)).toEqual({ id: ev.id, title: 'Budget 2025' });
    for (const x of all(s).filter((x) => x.id === ev.id)) expect(x.title).toBe('Budget 2025');
  }
  if (e?.type === 'xstate.error.actor.renameConversation') {
    const { id, previousTitle } = p!.context.pendingRename!;
    for (const x of all(s).filter((x) => x.id === id)) expect(x.title).toBe(previousTitle);
  }
  if (e?.type === 'xstate.done.actor.renameConversation') {
    for (const x of all(s).filter((x) => x.id === p!.context.renamingId)) {
      expect(x).toMatchObject({ title: 'Budget 2025', updated_at: '2025-01-02T10:00:00.000Z' });
    }
  }
  if (e?.type === 'xstate.done.actor.deleteConversation') {
    const id = p!.context.deletingId!;
    expect(all(s).some((x) => x.id === id)).toBe(false);
    expect(c.total).toBe(p!.context.total - (p!.context.conversations.some((x) => x.id === id) ? 1 : 0));
    expect(c.searchTotal).toBe(p!.context.searchTotal - (p!.context.searchResults.some((x) => x.id === id) ? 1 : 0));
  }
  if (e?.type === 'xstate.error.actor.deleteConversation') expect(c.conversations).toEqual(p!.context.conversations);
  prev = s;
}

runModelTest({
  name: 'conversation-list',
  machine: conversationListMachine,
  testMachine,
  onActor: (actor) => {
    fetchInputs = [];
    searchInputs = [];
    renameInputs = [];
    deleteInputs = [];
    emitted = [];
    emittedSeen = 0;
    Object.assign(counts, { fetch: 0, search: 0, rename: 0, del: 0 });
    prev = null;
    actor.on('*', (ev) => emitted.push(ev));
  },
  inputs: [undefined],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, s.context.page < s.context.totalPages, s.context.searchResults.length < s.context.searchTotal]),
  // Three parallel regions: simple paths over any two of them together already explode; the search region alone
  // gives its distinct routes, the edge-keyed shortest paths give every (state, event) pair.
  simpleKey: (s) => JSON.stringify((s.value as Value).search),
  edgeKeys: true,
  checks: { list: checkAll },
});

// --- examples: exact texts, emitted events, timing ---

describe('conversation-list (examples)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  type Fakes = {
    fetch?: (i: { page: number; pageSize: number }) => Promise<ConversationList>;
    search?: (i: { query: string; page: number; pageSize: number }) => Promise<ConversationSearchResult>;
    rename?: (i: { id: string; title: string }) => Promise<Conversation | void>;
    remove?: (i: { id: string }) => Promise<void>;
  };
  const start = (fakes: Fakes = {}) => {
    const calls: Array<[string, unknown]> = [];
    const machine = conversationListMachine.provide({
      actors: {
        fetchConversations: fromPromise<ConversationList, { page: number; pageSize: number }>(({ input }) => {
          calls.push(['fetch', input]);
          return fakes.fetch ? fakes.fetch(input) : Promise.resolve(input.page === 1 ? page1 : page2);
        }),
        searchConversations: fromPromise<ConversationSearchResult, { query: string; page: number; pageSize: number }>(({ input }) => {
          calls.push(['search', input]);
          return fakes.search ? fakes.search(input) : Promise.resolve(input.page === 1 ? hits1 : hits2);
        }),
        renameConversation: fromPromise<Conversation | void, { id: string; title: string }>(({ input }) => {
          calls.push(['rename', input]);
          return fakes.rename ? fakes.rename(input) : Promise.resolve();
        }),
        deleteConversation: fromPromise<void, { id: string }>(({ input }) => {
          calls.push(['delete', input]);
          return fakes.remove ? fakes.remove(input) : Promise.resolve();
        }),
      },
    });
    const actor = createActor(machine);
    const out: ConversationListEmitted[] = [];
    actor.on('*', (ev) => out.push(ev));
    actor.start();
    return { actor, calls, out };
  };
  const flush = () => new Promise((r) => setTimeout(r, 0));

  it('keeps the spec texts and constants', () => {
    expect(TITLE_EMPTY).toBe('Conversation title cannot be empty');
    expect(TITLE_TOO_LONG).toBe('Conversation title cannot be more than 200 characters');
    expect(SEARCH_TOO_SHORT).toBe('Type at least 3 characters to search...');
    expect([SEARCH_MIN_CHARS, CONVERSATION_PAGE_SIZE, SEARCH_PAGE_SIZE, TITLE_MAX_LENGTH, SEARCH_DEBOUNCE_MS]).toEqual([3, 10, 10, 200, 1500]);
    expect([FETCH_FAILED, LOAD_MORE_FAILED, SEARCH_FAILED, SEARCH_MORE_FAILED, RENAME_FAILED, DELETE_FAILED]).toEqual([
      'Failed to fetch conversations',
      'Failed to load more conversations',
      'Failed to search conversations',
      'Failed to load more search results',
      'Failed to rename conversation',
      'Failed to delete conversation',
    ]);
  });

  it('loads page 1, appends page 2 without duplicates, then has no more', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'list.load' });
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    await flush();
    expect(actor.getSnapshot().context.conversations).toHaveLength(10);
    actor.send({ type: 'list.loadMore' });
    expect(actor.getSnapshot().hasTag('loadingMore')).toBe(true);
    await flush();
    const s = actor.getSnapshot();
    expect(s.context.conversations.map((c) => c.id)).toEqual(ids(15).map((c) => c.id));
    expect(s.can({ type: 'list.loadMore' })).toBe(false);
    expect(calls).toEqual([
      ['fetch', { page: 1, pageSize: 10 }],
      ['fetch', { page: 2, pageSize: 10 }],
    ]);
  });

  it('emits list.failed with the spec sentence for each kind of failure', async () => {
    const fail = () => Promise.reject(new Error('500'));
    const { actor, out } = start({ fetch: fail, search: fail });
    actor.send({ type: 'list.load' });
    await flush();
    expect(out).toEqual([{ type: 'list.failed', message: 'Failed to fetch conversations' }]);
    expect(actor.getSnapshot().context.error).toBe('Failed to fetch conversations');

    const more = start({ fetch: (i) => (i.page === 1 ? Promise.resolve(page1) : fail()), search: (i) => (i.page === 1 ? Promise.resolve(hits1) : fail()) });
    vi.useFakeTimers();
    more.actor.send({ type: 'list.load' });
    await vi.advanceTimersByTimeAsync(0);
    more.actor.send({ type: 'list.loadMore' });
    await vi.advanceTimersByTimeAsync(0);
    more.actor.send({ type: 'search.change', text: 'trip' });
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    more.actor.send({ type: 'search.loadMore' });
    await vi.advanceTimersByTimeAsync(0);
    expect(more.out).toEqual([
      { type: 'list.failed', message: 'Failed to load more conversations' },
      { type: 'list.failed', message: 'Failed to load more search results' },
    ]);

    actor.send({ type: 'search.change', text: 'budget' });
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    expect(out.at(-1)).toEqual({ type: 'list.failed', message: 'Failed to search conversations' });
  });

  it('search: hint under 3 characters, one request 1500 ms after the last keystroke, empty restores the list', async () => {
    vi.useFakeTimers();
    const { actor, calls } = start();
    actor.send({ type: 'search.change', text: ' tr' });
    expect(actor.getSnapshot().hasTag('searchHint')).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toEqual([]);
    actor.send({ type: 'search.change', text: 'tri' });
    await vi.advanceTimersByTimeAsync(1000);
    actor.send({ type: 'search.change', text: 'trip ' });
    expect(actor.getSnapshot().hasTag('searching')).toBe(true);
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 1);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([['search', { query: 'trip', page: 1, pageSize: 10 }]]);
    let s = actor.getSnapshot();
    expect(s.hasTag('searching')).toBe(false);
    expect(s.context.searchResults.map((c) => c.id)).toEqual(['c2', 's1']);
    actor.send({ type: 'search.loadMore' });
    await vi.advanceTimersByTimeAsync(0);
    s = actor.getSnapshot();
    expect(s.context.searchResults.map((c) => c.id)).toEqual(['c2', 's1', 's2']);
    expect(s.can({ type: 'search.loadMore' })).toBe(false);
    actor.send({ type: 'search.change', text: '' });
    s = actor.getSnapshot();
    expect(s.hasTag('searchActive')).toBe(false);
    expect(s.context.searchResults).toEqual([]);
  });

  it('rename: client validation first, then the trimmed title; success and failure events', async () => {
    const { actor, calls, out } = start({
      rename: (i) => (i.id === 'c2' ? Promise.reject(new Error('Conversation not found')) : Promise.resolve({ ...conv(i.id), title: i.title })),
    });
    actor.send({ type: 'list.load' });
    await flush();
    actor.send({ type: 'conversation.rename', id: 'c1', title: '   ' });
    actor.send({ type: 'conversation.rename', id: 'c1', title: 'y'.repeat(201) });
    expect(calls.filter(([k]) => k === 'rename')).toEqual([]);
    expect(out).toEqual([
      { type: 'rename.invalid', id: 'c1', message: 'Conversation title cannot be empty' },
      { type: 'rename.invalid', id: 'c1', message: 'Conversation title cannot be more than 200 characters' },
    ]);
    actor.send({ type: 'conversation.rename', id: 'c1', title: ` ${'z'.repeat(200)} ` });
    expect(actor.getSnapshot().hasTag('renaming')).toBe(true);
    expect(actor.getSnapshot().context.conversations[0].title).toBe('z'.repeat(200));
    await flush();
    expect(out.at(-1)).toEqual({ type: 'rename.succeeded', id: 'c1', title: 'z'.repeat(200) });
    expect(calls.at(-1)).toEqual(['rename', { id: 'c1', title: 'z'.repeat(200) }]);

    actor.send({ type: 'conversation.rename', id: 'c2', title: 'Holiday' });
    expect(actor.getSnapshot().context.conversations[1].title).toBe('Holiday');
    await flush();
    expect(out.at(-1)).toEqual({ type: 'rename.failed', id: 'c2', title: 'Holiday', detail: 'Conversation not found' });
    expect(actor.getSnapshot().context.conversations[1].title).toBe('Conversation c2');
  });

  it('delete removes from both lists and emits deleted; a failure emits delete.failed', async () => {
    vi.useFakeTimers();
    const { actor, out } = start({ remove: (i) => (i.id === 'c3' ? Promise.reject(new Error('Forbidden')) : Promise.resolve()) });
    actor.send({ type: 'list.load' });
    actor.send({ type: 'search.change', text: 'trip' });
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    actor.send({ type: 'conversation.delete', id: 'c2' });
    expect(actor.getSnapshot().context.deletingId).toBe('c2');
    expect(actor.getSnapshot().can({ type: 'conversation.delete', id: 'c5' })).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    const s = actor.getSnapshot();
    expect(out).toEqual([{ type: 'deleted', id: 'c2' }]);
    expect(s.context.conversations.some((c) => c.id === 'c2')).toBe(false);
    expect(s.context.searchResults.map((c) => c.id)).toEqual(['s1']);
    expect(s.context.total).toBe(14);
    expect(s.context.searchTotal).toBe(2);
    actor.send({ type: 'conversation.delete', id: 'c3' });
    await vi.advanceTimersByTimeAsync(0);
    expect(out.at(-1)).toEqual({ type: 'delete.failed', id: 'c3', detail: 'Forbidden' });
    expect(actor.getSnapshot().context.conversations.some((c) => c.id === 'c3')).toBe(true);
  });

  it('upsert puts a new conversation on top and moves a renamed one there, without a request', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'list.load' });
    await flush();
    actor.send({ type: 'conversation.upsert', conversation: fresh });
    let s = actor.getSnapshot();
    expect(s.context.conversations[0]).toEqual(fresh);
    expect(s.context.total).toBe(16);
    actor.send({ type: 'conversation.upsert', conversation: { ...conv('c4'), title: 'Trip to Penang' } });
    s = actor.getSnapshot();
    expect(s.context.conversations.slice(0, 2).map((c) => [c.id, c.title])).toEqual([
      ['c4', 'Trip to Penang'],
      ['n1', 'New Conversation'],
    ]);
    expect(s.context.conversations).toHaveLength(11);
    expect(calls).toHaveLength(1);
  });

  it('refresh reloads the pages already shown in one call', async () => {
    const { actor, calls } = start({ fetch: (i) => Promise.resolve(i.pageSize === 20 ? refreshed : i.page === 1 ? page1 : page2) });
    actor.send({ type: 'list.load' });
    await flush();
    actor.send({ type: 'list.loadMore' });
    await flush();
    actor.send({ type: 'list.refresh' });
    expect(actor.getSnapshot().hasTag('refreshing')).toBe(true);
    await flush();
    expect(calls.at(-1)).toEqual(['fetch', { page: 1, pageSize: 20 }]);
    const s = actor.getSnapshot();
    expect(s.context.conversations).toHaveLength(15);
    expect([s.context.page, s.context.totalPages]).toEqual([2, 2]);
  });
});
