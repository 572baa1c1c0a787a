import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type EventFrom, type SnapshotFrom } from 'xstate';
import type { DocumentView } from '../../contract/documents';
import { isNotFoundFailure, loadFailure } from '../../machines/load-failure';
import { DOCUMENT_DELETE_FAILED, DOCUMENT_DELETED, DOCUMENTS_FETCH_FAILED } from '../../contract/documents-constants';
import {
  conversationDocumentsMachine,
  DOCUMENT_DOWNLOAD_FAILED,
  documentsLabel,
  NO_CONVERSATION_SELECTED,
  type ConversationDocumentsInput,
  type DocumentRef,
} from '../../machines/conversation-documents.machine';
import { notice, type Notice } from '../../machines/notice';
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

let loads: Array<{ conversationId: string }> = [];
let deletes: Array<{ id: string }> = [];
let downloads: DocumentRef[] = [];
let emitted: Notice[] = [];
let seen = { loads: 0, deletes: 0, downloads: 0, emitted: 0 };
let prev: Snap | null = null;

const testMachine = () =>
  conversationDocumentsMachine.provide({
    actors: {
      loadDocuments: pendingActor<DocumentView[], { conversationId: string }>((input) => loads.push(input)),
      deleteDocument: pendingActor<unknown, { id: string }>((input) => deletes.push(input)),
      downloadDocument: pendingActor<unknown, DocumentRef>((input) => downloads.push(input)),
    },
  });

const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output, actorId: id }) as never;
/** The conversation is not this person's (or not there): a 404, which the chat says once. */
const notFound = {
  type: 'xstate.error.actor.loadDocuments',
  error: loadFailure('HTTP 404', 'Conversation not found', true),
  actorId: 'loadDocuments',
} as never;
const failed = (id: string) => ({ type: `xstate.error.actor.${id}`, error: new Error('HTTP 500'), actorId: id }) as never;

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
    { type: 'document.delete', id: 'd1' },
    { type: 'document.delete', id: 'unknown' },
    { type: 'delete.confirm' },
    { type: 'delete.cancel' },
    { type: 'document.download', id: s.context.documents.at(-1)?.id ?? 'd2' },
    { type: 'document.download', id: 'unknown' },
  );
  if (s.hasTag('loading')) events.push(done('loadDocuments', LISTED), notFound, failed('loadDocuments'));
  if (s.hasTag('deleting')) events.push(done('deleteDocument', { message: DOCUMENT_DELETED }), failed('deleteDocument'));
  if (s.hasTag('downloading')) events.push(done('downloadDocument', undefined), failed('downloadDocument'));
  return events;
}

const key = (s: Snap) =>
  JSON.stringify([s.value, s.context.conversationId, s.context.documents.length, s.context.deletingId, s.context.downloadingId]);

/** The toasts a step must show, and nothing else. */
function expectedNotices(p: Snap, e: Ev): Notice[] {
  switch (e.type) {
    case 'documents.open':
      return p.matches('none') ? [notice('error', NO_CONVERSATION_SELECTED)] : [];
    case 'xstate.error.actor.loadDocuments':
      // Not found: no toast (the chat's one 'Conversation not found' says it).
      return isNotFoundFailure((e as { error?: unknown }).error) ? [] : [notice('error', DOCUMENTS_FETCH_FAILED)];
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

/** Whether a step starts a (new) load of the conversation's list. */
function startsLoad(p: Snap, e: Ev): boolean {
  if (e.type === 'conversation.open') return e.conversationId !== null && e.conversationId !== p.context.conversationId;
  if (p.matches('none')) return false;
  if (e.type === 'documents.changed') return true;
  if (e.type === 'documents.open') return p.matches({ conversation: { modal: 'closed' } });
  if (e.type === 'documents.retry') return p.matches({ conversation: { list: 'failed' } });
  return false;
}

function checkStep(s: Snap, e: { type: string } | null) {
  const p = prev;
  const event = e as Ev | null;
  const fresh = {
    loads: loads.slice(seen.loads),
    deletes: deletes.slice(seen.deletes),
    downloads: downloads.slice(seen.downloads),
    emitted: emitted.slice(seen.emitted),
  };
  seen = { loads: loads.length, deletes: deletes.length, downloads: downloads.length, emitted: emitted.length };
  const { conversationId, documents, deletingId, downloadingId } = s.context;

  // Invariants: tags and children mirror the states; the ids name listed documents exactly while they are used.
  expect(s.matches('none')).toBe(conversationId === null);
  expect(s.hasTag('loading')).toBe(s.matches({ conversation: { list: 'loading' } }));
  expect(s.hasTag('deleting')).toBe(s.matches({ conversation: { modal: { open: 'deleting' } } }));
  expect(s.hasTag('downloading')).toBe(s.matches({ conversation: { download: 'downloading' } }));
  expect(Boolean(s.children.loadDocuments)).toBe(s.hasTag('loading'));
  expect(Boolean(s.children.deleteDocument)).toBe(s.hasTag('deleting'));
  expect(Boolean(s.children.downloadDocument)).toBe(s.hasTag('downloading'));
  const confirming = s.matches({ conversation: { modal: { open: 'confirmingDelete' } } });
  expect(deletingId !== null).toBe(confirming || s.hasTag('deleting'));
  if (deletingId !== null) expect(documents.map((d) => d.id)).toContain(deletingId);
  expect(downloadingId !== null).toBe(s.hasTag('downloading'));
  if (s.matches('none')) expect(documents).toEqual([]);
  // Every load is for the open conversation; the view's buttons follow `can`.
  if (s.hasTag('loading')) expect(loads.at(-1)).toEqual({ conversationId });
  expect(s.can({ type: 'delete.confirm' })).toBe(confirming);
  expect(s.can({ type: 'documents.retry' })).toBe(s.matches({ conversation: { list: 'failed' } }));
  if (documents.length > 0) {
    expect(s.can({ type: 'document.download', id: documents[0]!.id })).toBe(s.matches({ conversation: { download: 'idle' } }));
  }

  if (!p || !event) {
    expect(fresh.loads).toHaveLength(conversationId === null ? 0 : 1);
    return;
  }
  expect(fresh.emitted).toEqual(expectedNotices(p, event));
  expect(fresh.loads).toHaveLength(startsLoad(p, event) ? 1 : 0);

  switch (event.type) {
    case 'conversation.open':
      if (event.conversationId === p.context.conversationId) {
        // The same conversation again (the URL said it once more): nothing changes.
        expect(s.value).toEqual(p.value);
        expect(s.context).toEqual(p.context);
      } else {
        // Another one starts afresh: no documents of the last one, the modal closed, no delete or download.
        expect(conversationId).toBe(event.conversationId);
        expect(documents).toEqual([]);
        if (conversationId !== null) expect(s.matches({ conversation: { list: 'loading', modal: 'closed', download: 'idle' } })).toBe(true);
      }
      break;
    case 'documents.changed':
      // The documents shown stay while the list loads again.
      if (!p.matches('none')) expect(s.hasTag('loading')).toBe(true);
      expect(documents).toEqual(p.context.documents);
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
      if (p.matches({ conversation: { modal: { open: 'browsing' } } }) && p.context.documents.some((d) => d.id === event.id)) {
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
      expect(documents).toEqual(p.context.documents);
      break;
    case 'document.download': {
      const listed = p.context.documents.find((d) => d.id === event.id);
      if (listed && p.matches({ conversation: { download: 'idle' } })) {
        expect(fresh.downloads).toEqual([{ id: listed.id, filename: listed.filename }]);
        expect(downloadingId).toBe(listed.id);
      } else {
        expect(fresh.downloads).toEqual([]);
        expect(downloadingId).toBe(p.context.downloadingId);
      }
      break;
    }
    case 'xstate.done.actor.loadDocuments':
      expect(documents).toEqual(LISTED);
      expect(s.matches({ conversation: { list: 'loaded' } })).toBe(true);
      break;
    case 'xstate.error.actor.loadDocuments':
      // A failed reload keeps what was shown; a 404 is a conversation not found, with nothing to retry.
      expect(documents).toEqual(p.context.documents);
      expect(s.matches({ conversation: { list: isNotFoundFailure(event.error) ? 'notFound' : 'failed' } })).toBe(true);
      break;
    case 'xstate.done.actor.deleteDocument':
      expect(documents).toEqual(p.context.documents.filter((d) => d.id !== p.context.deletingId));
      expect(s.matches({ conversation: { modal: { open: 'browsing' } } })).toBe(true);
      break;
    case 'xstate.error.actor.deleteDocument':
      expect(documents).toEqual(p.context.documents);
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
    loads = [];
    deletes = [];
    downloads = [];
    emitted = [];
    seen = { loads: 0, deletes: 0, downloads: 0, emitted: 0 };
    prev = null;
    actor.on('*', (ev) => emitted.push(ev as Notice));
  },
  inputs,
  events: eventsFor,
  key,
  edgeKeys: true,
  // The three regions are independent: simple paths over every combination of them would be endless, and the
  // arrival-aware shortest paths already reach each combination.
  simpleKey: (s) => (s.matches('none') ? 'none' : JSON.stringify((s.value as { conversation: { modal: unknown } }).conversation.modal)),
  checks: { none: check, conversation: check },
});

describe('conversation-documents (examples)', () => {
  it("labels the header button with the spec's 'N Document(s)'", () => {
    expect([0, 1, 2, 12].map(documentsLabel)).toEqual(['0 Documents', '1 Document', '2 Documents', '12 Documents']);
  });

  it('lists, deletes and downloads with the real actor logic wired as the SPA wires it', async () => {
    const served: DocumentView[] = [...LISTED];
    const saved: DocumentRef[] = [];
    const toasts: Notice[] = [];
    const requested: string[] = [];
    const actor = createActor(
      conversationDocumentsMachine.provide({
        actors: {
          loadDocuments: fromPromise<DocumentView[], { conversationId: string }>(async ({ input }) => {
            requested.push(input.conversationId);
            return input.conversationId === 'c1' ? [...served] : [];
          }),
          deleteDocument: fromPromise<unknown, { id: string }>(async ({ input }) => {
            served.splice(
              served.findIndex((d) => d.id === input.id),
              1,
            );
          }),
          downloadDocument: fromPromise<unknown, DocumentRef>(async ({ input }) => {
            saved.push(input);
          }),
        },
      }),
      { input: { conversationId: 'c1' } },
    );
    actor.on('*', (e) => toasts.push(e as Notice));
    actor.start();
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().context.documents.map((d) => d.filename)).toEqual(['handbook.pdf', 'budget.xlsx']);
    actor.send({ type: 'documents.open' });
    await new Promise((r) => setTimeout(r, 0));
    actor.send({ type: 'document.download', id: 'd2' });
    await new Promise((r) => setTimeout(r, 0));
    expect(saved).toEqual([{ id: 'd2', filename: 'budget.xlsx' }]);
    actor.send({ type: 'document.delete', id: 'd1' });
    actor.send({ type: 'delete.confirm' });
    await new Promise((r) => setTimeout(r, 0));
    expect(toasts).toEqual([notice('success', DOCUMENT_DELETED)]);
    expect(documentsLabel(actor.getSnapshot().context.documents.length)).toBe('1 Document');
    // Another conversation starts afresh: the modal closes, its own list loads.
    actor.send({ type: 'conversation.open', conversationId: 'c2' });
    expect(actor.getSnapshot().context.documents).toEqual([]);
    expect(actor.getSnapshot().matches({ conversation: { list: 'loading', modal: 'closed' } })).toBe(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(requested).toEqual(['c1', 'c1', 'c2']);
    actor.send({ type: 'conversation.open', conversationId: null });
    expect(actor.getSnapshot().matches('none')).toBe(true);
    actor.stop();
  });
});
