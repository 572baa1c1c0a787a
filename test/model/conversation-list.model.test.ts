import { describe, it, vi } from 'vitest';
import { expect } from './support/expect';
import { createActor, fromCallback, fromPromise, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import type { Conversation } from '../../contract/chat';
import { TITLE_EMPTY, TITLE_TOO_LONG } from '../../contract/chat-constants';
import {
  conversationListMachine,
  DELETE_FAILED,
  DELETED,
  FETCH_FAILED,
  PAGES_INPUT,
  RENAME_FAILED,
  RENAMED,
  SEARCH_INPUT,
  type ConversationListReported,
} from '../../machines/conversation-list.machine';
import { pagerMachine, pagerView, type PageRequest, type PageResult } from '../../machines/pager.machine';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof conversationListMachine>;
type Ev = EventFrom<typeof conversationListMachine>;

const saved: Conversation = { id: 'c1', title: 'Saved name', created_at: '2026-11-20T10:00:00Z', updated_at: '2026-11-23T10:00:00Z' };

/** What each fake pager was told, and with which input it started. */
let told: Record<'pages' | 'search', EventObject[]> = { pages: [], search: [] };
let inputs: Record<string, unknown> = {};
let reported: ConversationListReported[] = [];
let reportedSeen = 0;
let calls: Array<{ kind: 'rename' | 'delete'; input: unknown }> = [];

const fakePager = (name: 'pages' | 'search') =>
  fromCallback<EventObject, unknown>(({ receive, input }) => {
    inputs[name] = input;
    receive((event) => told[name].push(event));
  });

const testMachine = () =>
  conversationListMachine.provide({
    actors: {
      pages: fakePager('pages') as never,
      search: fakePager('search') as never,
      renameConversation: pendingActor<Conversation | void, { id: string; title: string }>((input) => calls.push({ kind: 'rename', input })),
      deleteConversation: pendingActor<void, { id: string }>((input) => calls.push({ kind: 'delete', input })),
    },
  });

function eventsFor(s: Snap): Ev[] {
  const always: Ev[] = [
    { type: 'list.loadMore' },
    { type: 'list.refresh' },
    { type: 'search.change', text: 'trip' },
    { type: 'search.loadMore' },
    { type: 'conversation.patch', id: 'c1', patch: { title: 'Polled title' } },
    { type: 'notice.show', tone: 'error', text: FETCH_FAILED },
  ];
  // The delete dialog opens and closes while nothing is being deleted (while deleting it is pending).
  const dialog: Ev[] = [
    { type: 'conversation.askDelete', id: 'c1', title: 'Trip' },
    { type: 'conversation.cancelDelete' },
  ];
  switch (s.value) {
    case 'idle':
      return [
        ...always,
        ...dialog,
        { type: 'conversation.rename', id: 'c1', title: '  New name ' },
        { type: 'conversation.rename', id: 'c1', title: '   ' },
        { type: 'conversation.rename', id: 'c1', title: 'x'.repeat(201) },
        { type: 'conversation.delete', id: 'c1' },
      ];
    case 'renaming':
      return [
        ...always,
        ...dialog,
        { type: 'conversation.rename', id: 'c2', title: 'Another' },
        { type: 'xstate.done.actor.renameConversation', output: saved } as never,
        { type: 'xstate.done.actor.renameConversation', output: undefined } as never,
        { type: 'xstate.error.actor.renameConversation', error: new Error('Network Error') } as never,
      ];
    case 'deleting':
      return [
        ...always,
        ...dialog,
        { type: 'conversation.delete', id: 'c2' },
        { type: 'xstate.done.actor.deleteConversation', output: undefined } as never,
        { type: 'xstate.error.actor.deleteConversation', error: new Error('Network Error') } as never,
      ];
    default:
      return always;
  }
}

let toldSeen = { pages: 0, search: 0 };
let prev: Snap | null = null;

/** The dialog's conversation: set by askDelete, cleared by cancelDelete (not while deleting) and by a delete that succeeded. */
function checkDialog(s: Snap, e: Ev | null, p: Snap | null) {
  const type = e?.type as string | undefined;
  if (!p) expect(s.context.confirmingDelete).toBeNull();
  else if (type === 'conversation.askDelete' && !p.matches('deleting')) expect(s.context.confirmingDelete).toEqual({ id: 'c1', title: 'Trip' });
  else if (type === 'conversation.cancelDelete' && !p.matches('deleting')) expect(s.context.confirmingDelete).toBeNull();
  else if (type === 'xstate.done.actor.deleteConversation') expect(s.context.confirmingDelete).toBeNull();
  // Anything else (a failed delete included: the dialog stays for another try) leaves it as it was.
  else expect(s.context.confirmingDelete).toEqual(p.context.confirmingDelete);
}

/** Per step: exactly what each pager was told, and exactly what was reported. */
const check = (fn: (s: Snap, e: Ev | null, fresh: { pages: EventObject[]; search: EventObject[]; reported: ConversationListReported[] }) => void) =>
  (s: Snap, e: { type: string } | null) => {
    const fresh = {
      pages: told.pages.slice(toldSeen.pages),
      search: told.search.slice(toldSeen.search),
      reported: reported.slice(reportedSeen),
    };
    toldSeen = { pages: told.pages.length, search: told.search.length };
    reportedSeen = reported.length;
    const event = e as Ev | null;
    checkDialog(s, event, prev);
    prev = s;
    // Both pagers run all the time, with the spec's page sizes, debounce and minimum.
    expect(inputs).toEqual({ pages: { ...PAGES_INPUT, parent: expect.anything() }, search: { ...SEARCH_INPUT, parent: expect.anything() } });
    expect(s.hasTag('renaming')).toBe(s.matches('renaming'));
    expect(s.hasTag('deleting')).toBe(s.matches('deleting'));
    switch (event?.type) {
      case 'list.loadMore':
        expect(fresh.pages).toEqual([{ type: 'pager.loadMore' }]);
        break;
      case 'list.refresh':
        expect(fresh.pages).toEqual([{ type: 'pager.refetch' }]);
        break;
      case 'search.change':
        expect(fresh.search).toEqual([{ type: 'pager.search', text: 'trip' }]);
        break;
      case 'search.loadMore':
        expect(fresh.search).toEqual([{ type: 'pager.loadMore' }]);
        break;
      case 'conversation.patch': {
        const upsert = { type: 'item.upsert', item: { id: 'c1', title: 'Polled title' }, insert: false };
        expect(fresh).toEqual({ pages: [upsert], search: [upsert], reported: [] });
        break;
      }
      case 'notice.show':
        expect(fresh.reported).toEqual([{ type: 'notice.show', tone: 'error', text: FETCH_FAILED }]);
        break;
      default:
        break;
    }
    if (!['notice.show'].includes(event?.type ?? '') && !event?.type.startsWith('xstate.') && event?.type !== 'conversation.rename') {
      expect(fresh.reported).toEqual([]);
    }
    fn(s, event, fresh);
  };

runModelTest({
  name: 'conversation-list',
  machine: conversationListMachine,
  testMachine,
  onActor: (actor) => {
    told = { pages: [], search: [] };
    toldSeen = { pages: 0, search: 0 };
    inputs = {};
    reported = [];
    reportedSeen = 0;
    calls = [];
    prev = null;
    actor.on('*', (ev) => reported.push(ev as ConversationListReported));
  },
  inputs: [undefined as never],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, s.context.confirmingDelete !== null]),
  simpleKey: (s) => JSON.stringify(s.value),
  edgeKeys: true,
  checks: {
    idle: check((s, e, fresh) => {
      expect(s.children.renameConversation).toBeUndefined();
      expect(s.children.deleteConversation).toBeUndefined();
      expect(s.context.renaming).toBeNull();
      expect(s.context.deletingId).toBeNull();
      if (e?.type === 'conversation.rename') {
        // Refused before any call: the spec's sentence, nothing shown changes.
        expect(fresh.reported).toEqual([{ type: 'notice.show', tone: 'error', text: e.title.trim() ? TITLE_TOO_LONG : TITLE_EMPTY }]);
        expect(fresh.pages).toEqual([]);
      }
      if ((e?.type as string | undefined) === 'xstate.done.actor.renameConversation') {
        const output = (e as unknown as { output?: Conversation }).output;
        const commit = { type: 'item.commit', id: 'c1', item: output ? { id: 'c1', title: 'Saved name', updated_at: saved.updated_at } : undefined };
        expect(fresh).toEqual({ pages: [commit], search: [commit], reported: [{ type: 'notice.show', tone: 'success', text: RENAMED }] });
      }
      if ((e?.type as string | undefined) === 'xstate.error.actor.renameConversation') {
        const revert = { type: 'item.revert', id: 'c1' };
        expect(fresh).toEqual({ pages: [revert], search: [revert], reported: [{ type: 'notice.show', tone: 'error', text: RENAME_FAILED }] });
      }
      if ((e?.type as string | undefined) === 'xstate.done.actor.deleteConversation') {
        const remove = { type: 'item.remove', id: 'c1' };
        expect(fresh).toEqual({
          pages: [remove],
          search: [remove],
          reported: [{ type: 'conversation.deleted', id: 'c1' }, { type: 'notice.show', tone: 'success', text: DELETED }],
        });
      }
      if ((e?.type as string | undefined) === 'xstate.error.actor.deleteConversation') {
        expect(fresh).toEqual({ pages: [], search: [], reported: [{ type: 'notice.show', tone: 'error', text: DELETE_FAILED }] });
      }
    }),
    renaming: check((s, e, fresh) => {
      expect(s.context.renaming).toEqual({ id: 'c1', title: 'New name' });
      expect(calls.at(-1)).toEqual({ kind: 'rename', input: { id: 'c1', title: 'New name' } });
      expect(calls.filter((c) => c.kind === 'rename')).toHaveLength(calls.length - calls.filter((c) => c.kind === 'delete').length);
      if (e?.type === 'conversation.rename' && e.id === 'c1') {
        // Shown at once in both lists (optimistic), trimmed.
        const patch = { type: 'item.patch', id: 'c1', patch: { title: 'New name' } };
        expect(fresh).toEqual({ pages: [patch], search: [patch], reported: [] });
      }
      // One operation at a time.
      expect(s.can({ type: 'conversation.delete', id: 'c2' })).toBe(false);
    }),
    deleting: check((s) => {
      expect(s.context.deletingId).toBe('c1');
      expect(calls.at(-1)).toEqual({ kind: 'delete', input: { id: 'c1' } });
      expect(s.can({ type: 'conversation.rename', id: 'c1', title: 'x' })).toBe(false);
    }),
  },
});

describe('conversation-list (examples, real pagers)', () => {
  const rows: Conversation[] = Array.from({ length: 14 }, (_, i) => ({
    id: `c${i}`,
    title: i === 3 ? 'Trip to Penang' : `Chat ${i}`,
    created_at: '2026-11-23T10:00:00Z',
    updated_at: '2026-11-23T10:00:00Z',
  }));
  const fetchFrom = (filter: (c: Conversation, q: string) => boolean) =>
    fromPromise<PageResult, PageRequest>(async ({ input }) => {
      const hits = rows.filter((c) => filter(c, input.query));
      const start = (input.page - 1) * input.pageSize;
      return { items: hits.slice(start, start + input.pageSize), page: input.page, total: hits.length, totalPages: Math.ceil(hits.length / input.pageSize) };
    });

  it('loads the first page, finds by search, and renames in both lists', async () => {
    vi.useFakeTimers();
    let fail = false;
    const machine = conversationListMachine.provide({
      actors: {
        pages: pagerMachine.provide({ actors: { fetchPage: fetchFrom(() => true) } }),
        search: pagerMachine.provide({ actors: { fetchPage: fetchFrom((c, q) => c.title.toLowerCase().includes(q.toLowerCase())) } }),
        renameConversation: fromPromise<Conversation | void, { id: string; title: string }>(async ({ input }) => {
          if (fail) throw new Error('Network Error');
          return { ...rows[3]!, title: input.title };
        }),
        deleteConversation: fromPromise<void, { id: string }>(async () => {}),
      },
    });
    const actor = createActor(machine).start();
    const view = (name: 'pages' | 'search') => pagerView<Conversation>(actor.getSnapshot().children[name]!.getSnapshot() as never);
    await vi.waitFor(() => expect(view('pages').items).toHaveLength(10));
    actor.send({ type: 'search.change', text: 'penang' });
    await vi.advanceTimersByTimeAsync(1500);
    await vi.waitFor(() => expect(view('search').items.map((c) => c.id)).toEqual(['c3']));
    actor.send({ type: 'conversation.rename', id: 'c3', title: 'Penang, again' });
    expect(view('pages').items[3]!.title).toBe('Penang, again');
    expect(view('search').items[0]!.title).toBe('Penang, again');
    await vi.waitFor(() => expect(actor.getSnapshot().matches('idle')).toBe(true));
    fail = true;
    actor.send({ type: 'conversation.rename', id: 'c3', title: 'Lost' });
    await vi.waitFor(() => expect(actor.getSnapshot().matches('idle')).toBe(true));
    expect(view('pages').items[3]!.title).toBe('Penang, again');
    actor.send({ type: 'search.change', text: '' });
    expect(view('search').inactive).toBe(true);
    actor.send({ type: 'conversation.delete', id: 'c3' });
    await vi.waitFor(() => expect(view('pages').items.some((c) => c.id === 'c3')).toBe(false));
    expect(view('pages').total).toBe(13);
    vi.useRealTimers();
  });
});
