import { describe, it, vi } from 'vitest';
import { expect } from './support/expect';
import { createActor, fromCallback, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import type { DocumentView } from '../../contract/documents';
import { DOCUMENT_DELETE_FAILED, DOCUMENT_DELETED, DOCUMENTS_FETCH_FAILED } from '../../contract/documents-constants';
import {
  conversationDocumentsMachine,
  DOCUMENT_DOWNLOAD_FAILED,
  documentListInput,
  documentsLabel,
  NO_CONVERSATION_SELECTED,
  type ConversationDocumentsInput,
  type DocumentRef,
} from '../../machines/conversation-documents.machine';
import { notice, type Notice } from '../../machines/notice';
import { pagerView, type PagerMachine } from '../../machines/pager.machine';
import { ApiError } from '../../src/api/api-error';
import { defineConversationDocumentsMachine, type ConversationDocumentsApi } from '../../src/features/chat/documents-actors';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof conversationDocumentsMachine>;
type Ev = EventFrom<typeof conversationDocumentsMachine>;

const doc = (id: string, filename: string): DocumentView => ({
  id,
  filename,
  size: 2048,
  type: 'application/pdf',
  created_at: '2026-11-24T10:00:00.000Z',
  file_path_marker: `::document{url="/api/v1/documents/${id}/file" name="${filename}"}`,
  conversation_id: 'c1',
  status: 'ready',
  note: null,
  error: null,
  download_url: `/api/v1/documents/${id}/file`,
  preview_url: null,
});
const LISTED = [doc('d1', 'handbook.pdf'), doc('d2', 'budget.xlsx')];

/** The lists (pagers) started, with what each was told; `stopped` once its conversation was left. */
let lists: Array<{ input: unknown; told: EventObject[]; stopped: boolean }> = [];
let deletes: Array<{ id: string }> = [];
let downloads: DocumentRef[] = [];
let emitted: Notice[] = [];
let seen = { lists: 0, told: 0, deletes: 0, downloads: 0, emitted: 0 };
let prev: Snap | null = null;

const toldSoFar = () => lists.reduce((n, l) => n + l.told.length, 0);

const testMachine = () =>
  conversationDocumentsMachine.provide({
    actors: {
      list: fromCallback<EventObject, unknown>(({ input, receive }) => {
        const list = { input, told: [] as EventObject[], stopped: false };
        lists.push(list);
        receive((e) => list.told.push(e));
        return () => {
          list.stopped = true;
        };
      }) as never,
      deleteDocument: pendingActor<unknown, { id: string }>((input) => deletes.push(input)),
      downloadDocument: pendingActor<unknown, DocumentRef>((input) => downloads.push(input)),
    },
  });

const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output, actorId: id }) as never;
const failed = (id: string) => ({ type: `xstate.error.actor.${id}`, error: new Error('HTTP 500'), actorId: id }) as never;
/** From the list: its failed read, which the machine passes on. */
const listFailed: Ev = notice('error', DOCUMENTS_FETCH_FAILED);

function eventsFor(s: Snap): Ev[] {
  const events: Ev[] = [
    { type: 'conversation.open', conversationId: null },
    // c1 -> null is another conversation as much as c1 -> c2 (an example below switches between two).
    { type: 'conversation.open', conversationId: 'c1' },
    { type: 'documents.open' },
    { type: 'documents.close' },
    { type: 'documents.changed' },
    { type: 'documents.retry' },
  ];
  if (s.matches('none')) return events;
  events.push(
    listFailed,
    { type: 'document.delete', id: 'd1' },
    { type: 'delete.confirm' },
    { type: 'delete.cancel' },
    { type: 'document.download', id: 'd2', filename: 'budget.xlsx' },
  );
  if (s.hasTag('deleting')) events.push(done('deleteDocument', { message: DOCUMENT_DELETED }), failed('deleteDocument'));
  if (s.hasTag('downloading')) events.push(done('downloadDocument', undefined), failed('downloadDocument'));
  return events;
}

const key = (s: Snap) => JSON.stringify([s.value, s.context.conversationId, s.context.deletingId, s.context.downloading]);

/** The toasts a step must show, and nothing else. */
function expectedNotices(p: Snap, e: Ev): Notice[] {
  switch (e.type) {
    case 'documents.open':
      return p.matches('none') ? [notice('error', NO_CONVERSATION_SELECTED)] : [];
    case 'notice.show':
      // The list's failed read is passed on as it came (a 404 never comes: the list keeps it quiet).
      return p.matches('none') ? [] : [e];
    case 'xstate.done.actor.deleteDocument':
      return [notice('success', DOCUMENT_DELETED)];
    case 'xstate.error.actor.deleteDocument':
      return [notice('error', DOCUMENT_DELETE_FAILED)];
    case 'xstate.error.actor.downloadDocument':
      return [notice('error', DOCUMENT_DOWNLOAD_FAILED)];
    default:
      return [];
  }
}

/** What the open conversation's list is told in a step. */
function expectedToList(p: Snap, e: Ev): Array<EventObject & Record<string, unknown>> {
  if (p.matches('none')) return [];
  switch (e.type) {
    // Read again; a read in flight starts over (the pager's `pager.load`).
    case 'documents.changed':
    case 'documents.retry':
      return [{ type: 'pager.load' }];
    case 'documents.open':
      return p.matches({ conversation: { modal: 'closed' } }) ? [{ type: 'pager.load' }] : [];
    case 'xstate.done.actor.deleteDocument':
      return [{ type: 'item.remove', id: p.context.deletingId }];
    default:
      return [];
  }
}

/** Whether a step starts a new list (another conversation opened). */
const startsList = (p: Snap, e: Ev) =>
  e.type === 'conversation.open' && e.conversationId !== null && e.conversationId !== p.context.conversationId;

function checkStep(s: Snap, e: { type: string } | null) {
  const p = prev;
  const event = e as Ev | null;
  const told = lists.flatMap((l) => l.told);
  const fresh = {
    lists: lists.slice(seen.lists),
    told: told.slice(seen.told),
    deletes: deletes.slice(seen.deletes),
    downloads: downloads.slice(seen.downloads),
    emitted: emitted.slice(seen.emitted),
  };
  seen = { lists: lists.length, told: toldSoFar(), deletes: deletes.length, downloads: downloads.length, emitted: emitted.length };
  const { conversationId, deletingId, downloading } = s.context;

  // Invariants: tags and children mirror the states; one list runs exactly while a conversation is open, its own.
  expect(s.matches('none')).toBe(conversationId === null);
  expect(s.hasTag('deleting')).toBe(s.matches({ conversation: { modal: { open: 'deleting' } } }));
  expect(s.hasTag('downloading')).toBe(s.matches({ conversation: { download: 'downloading' } }));
  expect(Boolean(s.children.list)).toBe(!s.matches('none'));
  expect(Boolean(s.children.deleteDocument)).toBe(s.hasTag('deleting'));
  expect(Boolean(s.children.downloadDocument)).toBe(s.hasTag('downloading'));
  const running = lists.filter((l) => !l.stopped);
  expect(running).toHaveLength(s.matches('none') ? 0 : 1);
  if (conversationId !== null) expect(running[0]!.input).toEqual({ ...documentListInput(conversationId), parent: expect.anything() });
  const confirming = s.matches({ conversation: { modal: { open: 'confirmingDelete' } } });
  expect(deletingId !== null).toBe(confirming || s.hasTag('deleting'));
  expect(downloading !== null).toBe(s.hasTag('downloading'));
  // The view's buttons follow `can`.
  expect(s.can({ type: 'delete.confirm' })).toBe(confirming);
  expect(s.can({ type: 'document.download', id: 'd1', filename: 'handbook.pdf' })).toBe(s.matches({ conversation: { download: 'idle' } }));

  if (!p || !event) {
    expect(fresh.lists).toHaveLength(conversationId === null ? 0 : 1);
    return;
  }
  expect(fresh.emitted).toEqual(expectedNotices(p, event));
  expect(fresh.told).toEqual(expectedToList(p, event));
  expect(fresh.lists).toHaveLength(startsList(p, event) ? 1 : 0);

  switch (event.type) {
    case 'conversation.open':
      if (event.conversationId === p.context.conversationId) {
        // The same conversation again (the URL said it once more): nothing changes, the same list goes on.
        expect(s.value).toEqual(p.value);
        expect(s.context).toEqual(p.context);
      } else {
        // Another one starts afresh: a new list (none for a new chat), the modal closed, no delete or download.
        expect(conversationId).toBe(event.conversationId);
        expect(lists.filter((l) => l !== fresh.lists[0]).every((l) => l.stopped)).toBe(true);
        if (conversationId !== null) expect(s.matches({ conversation: { modal: 'closed', download: 'idle' } })).toBe(true);
      }
      break;
    case 'documents.open':
      if (!p.matches('none')) expect(s.matches({ conversation: { modal: 'open' } })).toBe(true);
      break;
    case 'documents.close':
      // While the server deletes, the modal and its confirmation stay.
      if (p.hasTag('deleting')) expect(s.hasTag('deleting')).toBe(true);
      else if (!p.matches('none')) expect(s.matches({ conversation: { modal: 'closed' } })).toBe(true);
      break;
    case 'document.delete':
      if (p.matches({ conversation: { modal: { open: 'browsing' } } })) {
        expect(confirming).toBe(true);
        expect(deletingId).toBe(event.id);
      } else {
        expect(s.value).toEqual(p.value);
      }
      break;
    case 'delete.confirm':
      if (p.matches({ conversation: { modal: { open: 'confirmingDelete' } } })) expect(fresh.deletes).toEqual([{ id: p.context.deletingId }]);
      else expect(fresh.deletes).toEqual([]);
      break;
    case 'delete.cancel':
      if (p.matches({ conversation: { modal: { open: 'confirmingDelete' } } })) {
        expect(s.matches({ conversation: { modal: { open: 'browsing' } } })).toBe(true);
      }
      break;
    case 'document.download':
      if (p.matches({ conversation: { download: 'idle' } })) {
        // The download saves the file under the name the list showed.
        expect(fresh.downloads).toEqual([{ id: event.id, filename: event.filename }]);
        expect(downloading).toEqual({ id: event.id, filename: event.filename });
      } else {
        // One at a time.
        expect(fresh.downloads).toEqual([]);
        expect(downloading).toEqual(p.context.downloading);
      }
      break;
    case 'xstate.done.actor.deleteDocument':
    case 'xstate.error.actor.deleteDocument':
      expect(s.matches({ conversation: { modal: { open: 'browsing' } } })).toBe(true);
      break;
    default:
      break;
  }
  // Only a confirmed delete deletes, only a click downloads.
  if (event.type !== 'delete.confirm') expect(fresh.deletes).toEqual([]);
  if (event.type !== 'document.download') expect(fresh.downloads).toEqual([]);
}

const check = (s: Snap, e: { type: string } | null) => {
  checkStep(s, e);
  prev = s;
};

const inputs: ConversationDocumentsInput[] = [{ conversationId: null }, { conversationId: 'c1' }];

runModelTest({
  name: 'conversation-documents',
  machine: conversationDocumentsMachine,
  testMachine,
  onActor: (actor) => {
    lists = [];
    deletes = [];
    downloads = [];
    emitted = [];
    seen = { lists: 0, told: 0, deletes: 0, downloads: 0, emitted: 0 };
    prev = null;
    actor.on('*', (ev) => emitted.push(ev as Notice));
  },
  inputs,
  events: eventsFor,
  key,
  edgeKeys: true,
  // The two regions are independent: simple paths over every combination of them would be endless, and the
  // arrival-aware shortest paths already reach each combination.
  simpleKey: (s) => (s.matches('none') ? 'none' : JSON.stringify((s.value as { conversation: { modal: unknown } }).conversation.modal)),
  checks: { none: check, conversation: check },
});

describe('conversation-documents (examples)', () => {
  it("labels the header button with the spec's 'N Document(s)'", () => {
    expect([0, 1, 2, 12].map(documentsLabel)).toEqual(['0 Documents', '1 Document', '2 Documents', '12 Documents']);
  });

  /** The SPA's wiring (documents-actors.ts) over a fake API: the real pager, the real one-page read. */
  function wired(api: Partial<ConversationDocumentsApi>) {
    const toasts: Notice[] = [];
    const actor = createActor(
      defineConversationDocumentsMachine({
        api: {
          fetchDocuments: async () => [],
          deleteDocument: async () => undefined,
          saveApiFile: async () => undefined,
          currentUserId: () => 'u1',
          ...api,
        },
      }),
      { input: { conversationId: 'c1' } },
    );
    actor.on('*', (e) => toasts.push(e as Notice));
    const list = () => pagerView<DocumentView>(actor.getSnapshot().children.list!.getSnapshot() as SnapshotFrom<PagerMachine>);
    return { actor, toasts, list };
  }

  it('lists, deletes and downloads through the pager, and starts a new list for another conversation', async () => {
    const served: DocumentView[] = [...LISTED];
    const saved: Array<{ path: string; name: string }> = [];
    const requested: string[] = [];
    const { actor, toasts, list } = wired({
      fetchDocuments: async (conversationId) => {
        requested.push(conversationId);
        return conversationId === 'c1' ? [...served] : [];
      },
      deleteDocument: async (id) => {
        served.splice(
          served.findIndex((d) => d.id === id),
          1,
        );
      },
      saveApiFile: async (path, name) => {
        saved.push({ path, name });
      },
    });
    actor.start();
    await vi.waitFor(() => expect(list().items.map((d) => d.filename)).toEqual(['handbook.pdf', 'budget.xlsx']));
    expect(list()).toMatchObject({ total: 2, page: 1, totalPages: 1 });
    actor.send({ type: 'documents.open' });
    await vi.waitFor(() => expect(requested).toEqual(['c1', 'c1']));
    actor.send({ type: 'document.download', id: 'd2', filename: 'budget.xlsx' });
    await vi.waitFor(() => expect(saved).toEqual([{ path: '/documents/d2/file', name: 'budget.xlsx' }]));
    actor.send({ type: 'document.delete', id: 'd1' });
    actor.send({ type: 'delete.confirm' });
    await vi.waitFor(() => expect(toasts).toEqual([notice('success', DOCUMENT_DELETED)]));
    expect(documentsLabel(list().total)).toBe('1 Document');
    // Another conversation starts afresh: the modal closes, a new list reads its own documents.
    const first = actor.getSnapshot().children.list;
    actor.send({ type: 'conversation.open', conversationId: 'c2' });
    expect(actor.getSnapshot().children.list).not.toBe(first);
    expect(list().items).toEqual([]);
    expect(actor.getSnapshot().matches({ conversation: { modal: 'closed' } })).toBe(true);
    await vi.waitFor(() => expect(requested).toEqual(['c1', 'c1', 'c2']));
    actor.send({ type: 'conversation.open', conversationId: null });
    expect(actor.getSnapshot().matches('none')).toBe(true);
    expect(actor.getSnapshot().children.list).toBeUndefined();
    actor.stop();
  });

  it("says 'Failed to fetch documents' for a failed read, and nothing for a conversation that is not theirs (404)", async () => {
    let status = 500;
    const { actor, toasts, list } = wired({
      fetchDocuments: async () => {
        throw new ApiError({ status, detail: status === 404 ? 'Conversation not found' : 'Internal Server Error' });
      },
    });
    actor.start();
    await vi.waitFor(() => expect(list().error).toBe(DOCUMENTS_FETCH_FAILED));
    expect(toasts).toEqual([notice('error', DOCUMENTS_FETCH_FAILED)]);
    status = 404;
    actor.send({ type: 'documents.retry' });
    await vi.waitFor(() => expect(list().refused).toBe(404));
    expect(list()).toMatchObject({ items: [], total: 0, error: null });
    expect(toasts).toHaveLength(1);
    actor.stop();
  });

  it('reads again when the documents change, starting a read in flight over and keeping the count meanwhile', async () => {
    const answers: Array<(documents: DocumentView[]) => void> = [];
    const { actor, list } = wired({
      fetchDocuments: (_id, signal) =>
        new Promise<DocumentView[]>((resolve, reject) => {
          answers.push(resolve);
          signal?.addEventListener('abort', () => reject(new ApiError({ status: 0, detail: 'aborted', aborted: true })));
        }),
    });
    actor.start();
    answers[0]!([LISTED[0]!]);
    await vi.waitFor(() => expect(list().total).toBe(1));
    actor.send({ type: 'documents.changed' });
    expect(list()).toMatchObject({ loading: true, total: 1 });
    // An upload finishes while that read is out: it starts over, so its answer includes the new document.
    actor.send({ type: 'documents.changed' });
    expect(answers).toHaveLength(3);
    expect(list().total).toBe(1);
    answers[2]!(LISTED);
    await vi.waitFor(() => expect(list().total).toBe(2));
    actor.stop();
  });
});
