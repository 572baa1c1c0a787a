import { describe, it, vi } from 'vitest';
import { expect } from './support/expect';
import { createActor, fromCallback, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import { chatSendMachine, type ChatSendReported, type SendMessageInput } from '../../machines/chat-send.machine';
import type { DocumentView } from '../../contract/documents';
import {
  DOCUMENT_DELETE_FAILED,
  DOCUMENT_DELETED,
  DOCUMENT_UPLOAD_FAILED,
  DOCUMENT_UPLOADED,
  DOCUMENTS_UPLOAD_FAILED,
  DOCUMENTS_UPLOADED,
  MAX_DOCUMENTS_PER_MESSAGE,
  UPLOAD_TYPE_REFUSED,
  type DocumentStatus,
} from '../../contract/documents-constants';
import { loadFailure } from '../../machines/load-failure';
import { notice, type Notice } from '../../machines/notice';
import type { PollOutput } from '../../machines/poll.machine';
import {
  CHUNKING_MS,
  CLOCK_STATES,
  documentPollInput,
  documentPollMachine,
  EMBEDDING_MS,
  shownStage,
  tooManyFiles,
  UPLOADING_MS,
  uploadFailureText,
  uploadMachine,
  uploadStageOf,
  type DeleteFileInput,
  type DocumentCheckInput,
  type UploadFilesInput,
  type UploadOutcome,
  type UploadReported,
} from '../../machines/upload.machine';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof uploadMachine>;
type Ev = EventFrom<typeof uploadMachine>;

const AFTER = {
  uploading: 'xstate.after.UPLOADING_MS.upload.composer.batch.attaching.clock.uploading',
  chunking: 'xstate.after.CHUNKING_MS.upload.composer.batch.attaching.clock.chunking',
  embedding: 'xstate.after.EMBEDDING_MS.upload.composer.batch.attaching.clock.embedding',
} as const;

const file = (name: string, type = 'text/plain') => new File(['Tanya reads the quarterly report.'], name, { type });
const ONE = [file('notes.txt')];
const TWO = [file('report.pdf', 'application/pdf'), file('photo.png', 'image/png')];
const TOO_MANY = Array.from({ length: MAX_DOCUMENTS_PER_MESSAGE + 1 }, (_, i) => file(`f${i}.txt`));

const view = (id: string, filename: string, status: DocumentStatus, conversationId: string | null, error: string | null = null): DocumentView => ({
  id,
  filename,
  size: 33,
  type: filename.endsWith('.png') ? 'image/png' : 'text/plain',
  created_at: '2026-11-24T10:00:00.000Z',
  file_path_marker: `::document{url="/api/v1/documents/${id}/file" name="${filename}"}`,
  conversation_id: conversationId,
  status,
  note: null,
  error,
  download_url: `/api/v1/documents/${id}/file`,
  preview_url: filename.endsWith('.png') ? `/api/v1/files/key-${id}` : null,
});

/** The highest document number listed: new documents count on from it, so every path's ids are distinct. */
const lastId = (s: Snap) => Math.max(0, ...s.context.files.map((f) => Number(f.id.slice(1))));
/** The batch's documents as the server stores them. */
const stored = (s: Snap, status: DocumentStatus): DocumentView[] =>
  s.context.batch.map((f, i) => view(`d${lastId(s) + i + 1}`, f.name, status, s.context.conversationId));
const uploaded = (s: Snap, status: DocumentStatus): UploadOutcome[] =>
  stored(s, status).map((document) => ({ name: document.filename, document, detail: null }));
const refused = (s: Snap): UploadOutcome[] => s.context.batch.map((f) => ({ name: f.name, document: null, detail: UPLOAD_TYPE_REFUSED }));
/** The watched documents moved on: all to `status` (the last one failing when `lastFails`). */
const moved = (s: Snap, status: DocumentStatus, lastFails = false): DocumentView[] =>
  s.context.processing.map((d, i, all) =>
    lastFails && i === all.length - 1 ? { ...d, status: 'failed' as const, error: 'The PDF has no text layer (a scanned document?)' } : { ...d, status },
  );
const pollEnd = (status: PollOutput['status'], value: DocumentView[]): PollOutput<DocumentView[]> => ({
  status,
  value,
  error: null,
  attempts: 3,
});

// --- fakes and what they saw ---
let uploads: UploadFilesInput[] = [];
let checks: DocumentCheckInput[] = [];
let deletes: DeleteFileInput[] = [];
let reported: UploadReported[] = [];
let seen = { uploads: 0, deletes: 0, reported: 0 };
let prev: Snap | null = null;

const testMachine = () =>
  uploadMachine.provide({
    actors: {
      uploadFiles: pendingActor<UploadOutcome[], UploadFilesInput>((input) => uploads.push(input)),
      // The real poll; its first check is a second away, so a (synchronous) path never reaches it: the paths send
      // its progress and its end.
      watch: documentPollMachine.provide({ actors: { check: pendingActor<DocumentView[], DocumentCheckInput>((input) => checks.push(input)) } }),
      deleteDocument: pendingActor<unknown, DeleteFileInput>((input) => deletes.push(input)),
    },
  });

const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output, actorId: id }) as never;
const failed = (id: string, error: unknown = new Error('HTTP 500')) => ({ type: `xstate.error.actor.${id}`, error, actorId: id }) as never;

function eventsFor(s: Snap): Ev[] {
  const events: Ev[] = [
    { type: 'conversation.open', conversationId: null },
    { type: 'conversation.open', conversationId: 'c1' },
    { type: 'conversation.open', conversationId: 'c2' },
  ];
  const attaching = s.hasTag('attaching');
  // A batch starts beside an idle removal only (the two regions' transitions are independent).
  // While a batch attaches, more files queue for the next one (or are too many); one queued is enough to follow.
  if (attaching && s.context.queued.length === 0) events.push({ type: 'files.add', files: ONE }, { type: 'files.add', files: TOO_MANY });
  if (!attaching && !s.hasTag('deleting')) {
    events.push(
      { type: 'files.add', files: ONE },
      { type: 'files.add', files: TWO },
      { type: 'files.add', files: TOO_MANY },
      { type: 'attachments.sent', documentIds: s.context.files.slice(0, 1).map((f) => f.id) },
    );
  }
  // Deletion is tried beside an idle batch only (its transitions are the same beside a busy one).
  if (!attaching && !s.hasTag('deleting')) {
    events.push({ type: 'file.delete', id: s.context.files[0]?.id ?? 'd1' }, { type: 'file.delete', id: 'unknown' });
  }
  if (s.hasTag('deleting')) events.push(done('deleteDocument', { message: DOCUMENT_DELETED }), failed('deleteDocument'));
  if (s.matches({ composer: { batch: { attaching: { work: 'sending' } } } })) {
    events.push(
      done('uploadFiles', uploaded(s, 'queued')),
      done('uploadFiles', uploaded(s, 'ready')),
      done('uploadFiles', refused(s)),
      failed('uploadFiles', loadFailure('HTTP 413', 'The file is larger than the 25 MB upload limit.')),
    );
  }
  if (s.matches({ composer: { batch: { attaching: { work: 'processing' } } } })) {
    events.push(
      { type: 'poll.progress', value: moved(s, 'saving') },
      done('watch', pollEnd('finished', moved(s, 'ready'))),
      done('watch', pollEnd('finished', moved(s, 'ready', true))),
      done('watch', pollEnd('gaveUp', moved(s, 'chunking'))),
      failed('watch'),
    );
  }
  if (s.matches({ composer: { batch: { attaching: { clock: 'uploading' } } } })) events.push({ type: AFTER.uploading } as never);
  if (s.matches({ composer: { batch: { attaching: { clock: 'chunking' } } } })) events.push({ type: AFTER.chunking } as never);
  if (s.matches({ composer: { batch: { attaching: { clock: 'embedding' } } } })) events.push({ type: AFTER.embedding } as never);
  return events;
}

const statuses = (s: Snap) => [...new Set(s.context.processing.map((d) => d.status))].sort().join(',');
const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.conversationId,
    Math.min(s.context.files.length, 2),
    s.context.batch.length,
    s.context.queued.length,
    statuses(s),
  ]);
/** The simple paths follow the work and the removal only (the clock's interleavings are the shortest paths' job). */
const workOf = (s: Snap) => ['sending', 'processing', 'settled'].find((w) => s.matches({ composer: { batch: { attaching: { work: w as 'sending' } } } })) ?? 'idle';
const simpleKey = (s: Snap) => JSON.stringify([workOf(s), s.hasTag('deleting'), s.context.queued.length > 0]);

/** The notices a batch's end shows, given the snapshot before it (refusals were told when the server answered). */
function endNotices(p: Snap, processing: DocumentView[]): UploadReported[] {
  const ready = processing.filter((d) => d.status === 'ready');
  const failedToo = processing.filter((d) => d.status !== 'ready').map((d) => ({ name: d.filename, detail: d.error }));
  const out: UploadReported[] = [];
  if (ready.length) out.push(notice('success', ready.length === 1 ? DOCUMENT_UPLOADED : DOCUMENTS_UPLOADED));
  if (failedToo.length) out.push(notice('error', uploadFailureText(failedToo)));
  if (p.context.conversationId !== null && processing.length) out.push({ type: 'documents.changed' });
  return out;
}

function checkStep(s: Snap, e: { type: string } | null) {
  const p = prev;
  const event = e as Ev | null;
  const fresh = { uploads: uploads.slice(seen.uploads), deletes: deletes.slice(seen.deletes), reported: reported.slice(seen.reported) };
  seen = { uploads: uploads.length, deletes: deletes.length, reported: reported.length };
  const { files, batch, deletingDocumentId } = s.context;
  const attaching = s.matches({ composer: { batch: 'attaching' } });

  // Invariants: tags and children mirror the states; only ready documents are listed.
  expect(s.hasTag('attaching')).toBe(attaching);
  expect(batch.length > 0).toBe(attaching);
  expect(s.hasTag('deleting')).toBe(s.matches({ composer: { removal: 'deleting' } }));
  expect(deletingDocumentId !== null).toBe(s.hasTag('deleting'));
  if (deletingDocumentId !== null) expect(files.map((f) => f.id)).toContain(deletingDocumentId);
  expect(Boolean(s.children.uploadFiles)).toBe(s.matches({ composer: { batch: { attaching: { work: 'sending' } } } }));
  expect(Boolean(s.children.watch)).toBe(s.matches({ composer: { batch: { attaching: { work: 'processing' } } } }));
  expect(Boolean(s.children.deleteDocument)).toBe(s.hasTag('deleting'));
  expect(files.every((f) => f.status === 'ready')).toBe(true);
  expect(new Set(files.map((f) => f.id)).size).toBe(files.length);
  expect(files.length).toBeLessThanOrEqual(MAX_DOCUMENTS_PER_MESSAGE);
  // The screen's mirror: the last attachments.changed says what is listed and whether a batch attaches.
  const mirror = reported.filter((r) => r.type === 'attachments.changed').at(-1);
  expect(mirror).toEqual({
    type: 'attachments.changed',
    documentIds: files.map((f) => f.id),
    documents: files.map((f) => ({ id: f.id, filename: f.filename, type: f.type, size: f.size })),
    attaching,
  });
  // The stage: none while idle; never behind the clock; the server's where it is further along.
  const stage = uploadStageOf(s);
  if (!attaching) expect(stage).toBeNull();
  else {
    const clock = CLOCK_STATES.findIndex((c) => s.matches({ composer: { batch: { attaching: { clock: c } } } }));
    expect(stage).toBe(shownStage(clock, s.context.processing));
    expect(['Uploading', 'Chunking text', 'Creating embeddings', 'Saving chunks'].indexOf(stage!)).toBeGreaterThanOrEqual(clock);
  }

  if (!p || !event) {
    expect(fresh.reported).toEqual([{ type: 'attachments.changed', documentIds: [], documents: [], attaching: false }]);
    return;
  }
  const notices = fresh.reported.filter((r) => r.type !== 'attachments.changed');
  const type: string = event.type;
  const wasAttaching = p.hasTag('attaching');
  // The batch ended (and the queued files, if any, started the next one in the same step).
  const ended = wasAttaching && s.context.batch !== p.context.batch && event.type !== 'conversation.open';

  if (ended) {
    // It ended only with the work settled and 'Uploading' over, or with nothing stored (refused at once).
    const settledBefore = p.matches({ composer: { batch: { attaching: { work: 'settled' } } } });
    const clockBefore = p.matches({ composer: { batch: { attaching: { clock: 'uploading' } } } });
    expect(settledBefore || event.type.startsWith('xstate.done.actor') || event.type.startsWith('xstate.error.actor')).toBe(true);
    if (clockBefore && type !== AFTER.uploading) expect(s.context.files).toEqual(p.context.files);
    // What was queued is the next batch, uploaded at once.
    if (p.context.queued.length) {
      expect(attaching).toBe(true);
      expect(s.context.batch).toEqual(p.context.queued);
      expect(s.context.queued).toEqual([]);
      expect(fresh.uploads).toEqual([{ conversationId: p.context.conversationId, files: p.context.queued }]);
      expect(uploadStageOf(s)).toBe('Uploading');
    } else expect(attaching).toBe(false);
  } else if (event.type !== 'conversation.open' && event.type !== 'files.add') {
    expect(s.context.queued).toEqual(p.context.queued);
  }

  switch (event.type) {
    case 'conversation.open':
      if (event.conversationId === p.context.conversationId) {
        expect(s.value).toEqual(p.value);
        expect(s.context).toEqual(p.context);
        expect(fresh.reported).toEqual([]);
      } else {
        // Another conversation (or a new chat): the upload in flight is cancelled and the list empties.
        expect(s.context.conversationId).toBe(event.conversationId);
        expect(s.matches({ composer: { batch: 'idle', removal: 'idle' } })).toBe(true);
        expect(files).toEqual([]);
        expect(notices).toEqual([]);
      }
      break;
    case 'files.add':
      if (event.files.length === 0) {
        expect(fresh.reported).toEqual([]);
        expect(s.value).toEqual(p.value);
      } else if (p.context.files.length + p.context.batch.length + p.context.queued.length + event.files.length > MAX_DOCUMENTS_PER_MESSAGE) {
        expect(fresh.reported).toEqual([notice('error', tooManyFiles(MAX_DOCUMENTS_PER_MESSAGE))]);
        expect(attaching).toBe(wasAttaching);
        expect(s.context.queued).toEqual(p.context.queued);
      } else if (wasAttaching) {
        // Taken for the next batch: nothing is uploaded yet, the batch under way goes on.
        expect(s.context.queued).toEqual([...p.context.queued, ...event.files]);
        expect(s.context.batch).toBe(p.context.batch);
        expect(fresh.uploads).toEqual([]);
        expect(fresh.reported).toEqual([]);
      } else {
        expect(attaching).toBe(true);
        expect(fresh.uploads).toEqual([{ conversationId: p.context.conversationId, files: event.files }]);
        expect(uploadStageOf(s)).toBe('Uploading');
        expect(notices).toEqual([]);
      }
      break;
    case 'file.delete':
      if (p.context.files.some((f) => f.id === event.id)) {
        expect(fresh.deletes).toEqual([{ id: event.id }]);
        expect(deletingDocumentId).toBe(event.id);
      } else {
        expect(fresh.deletes).toEqual([]);
        expect(s.value).toEqual(p.value);
      }
      expect(fresh.reported).toEqual([]);
      break;
    case 'xstate.done.actor.deleteDocument':
      expect(files.map((f) => f.id)).toEqual(p.context.files.filter((f) => f.id !== p.context.deletingDocumentId).map((f) => f.id));
      expect(notices).toEqual([
        notice('success', DOCUMENT_DELETED),
        ...(p.context.conversationId !== null ? [{ type: 'documents.changed' as const }] : []),
      ]);
      break;
    case 'xstate.error.actor.deleteDocument':
      expect(files).toEqual(p.context.files);
      expect(notices).toEqual([notice('error', DOCUMENT_DELETE_FAILED)]);
      break;
    case 'attachments.sent':
      expect(files.map((f) => f.id)).toEqual(p.context.files.slice(1).map((f) => f.id));
      expect(notices).toEqual([]);
      break;
    case 'xstate.done.actor.uploadFiles': {
      const outcomes = (event as unknown as { output: UploadOutcome[] }).output;
      const docs = outcomes.flatMap((o) => (o.document ? [o.document] : []));
      const refusedNow = outcomes.filter((o) => !o.document).map((o) => ({ name: o.name, detail: o.detail }));
      // The refusals are told as the answer comes, whatever the clock shows.
      const told: UploadReported[] = refusedNow.length ? [notice('error', uploadFailureText(refusedNow))] : [];
      if (docs.length === 0) expect(ended).toBe(true);
      if (ended) {
        expect(notices).toEqual([...told, ...endNotices(p, docs)]);
      } else {
        expect(notices).toEqual(told);
        expect(s.context.processing).toEqual(docs);
      }
      // Something to watch: the poll runs for the documents still processing.
      if (docs.some((d) => d.status !== 'ready' && d.status !== 'failed')) expect(s.children.watch).toBeDefined();
      break;
    }
    case 'xstate.error.actor.uploadFiles':
      // Nothing stored: the batch ends at once with the reason.
      expect(ended).toBe(true);
      expect(notices).toEqual([
        notice('error', uploadFailureText(p.context.batch.map((f) => ({ name: f.name, detail: 'The file is larger than the 25 MB upload limit.' })))),
      ]);
      break;
    case 'poll.progress':
      expect(s.context.processing.map((d) => d.status)).toEqual(p.context.processing.map(() => 'saving'));
      // Being saved: the stage shown is 'Saving chunks', whatever the clock says.
      expect(uploadStageOf(s)).toBe('Saving chunks');
      expect(notices).toEqual([]);
      break;
    case 'xstate.done.actor.watch': {
      const output = (event as unknown as { output: PollOutput<DocumentView[]> }).output;
      if (ended) expect(notices).toEqual(endNotices(p, output.value!));
      else expect(notices).toEqual([]);
      break;
    }
    case 'xstate.error.actor.watch':
      if (ended) expect(notices).toEqual(endNotices(p, p.context.processing));
      else expect(notices).toEqual([]);
      break;
    default:
      if (type === AFTER.uploading && ended) {
        expect(notices).toEqual(endNotices(p, p.context.processing));
      } else {
        expect(notices).toEqual([]);
      }
  }
  if (ended) {
    const added = files.slice(p.context.files.length);
    expect(added.every((f) => f.status === 'ready')).toBe(true);
    expect(files.slice(0, p.context.files.length)).toEqual(p.context.files);
  }
}

runModelTest({
  name: 'upload',
  machine: uploadMachine,
  testMachine,
  onActor: (actor) => {
    uploads = [];
    checks = [];
    deletes = [];
    reported = [];
    seen = { uploads: 0, deletes: 0, reported: 0 };
    prev = null;
    actor.on('*', (ev) => reported.push(ev as UploadReported));
  },
  inputs: [{ conversationId: null }, { conversationId: 'c1' }],
  events: eventsFor,
  key,
  simpleKey,
  checks: {
    composer: (s, e) => {
      checkStep(s, e);
      prev = s;
    },
  },
});

describe('upload (examples)', () => {
  it('chat-send: a submit carries the attachments as document_ids and reports them sent; one without carries none', () => {
    const sent: SendMessageInput[] = [];
    const actor = createActor(
      chatSendMachine.provide({
        actors: {
          sendMessage: fromCallback<EventObject, SendMessageInput>(({ input }) => {
            sent.push(input);
          }),
        },
      }),
      { input: { conversationId: null } },
    );
    const out: ChatSendReported[] = [];
    actor.on('*', (e) => out.push(e as ChatSendReported));
    actor.start();
    const options = { browsing: false, imageGeneration: false, reasoningEffort: 'low' as const };
    actor.send({ type: 'message.submit', text: 'Summarise the report', documentIds: ['d1', 'd2'], ...options });
    expect(sent.at(-1)).toMatchObject({ message: 'Summarise the report', document_ids: ['d1', 'd2'] });
    expect(out).toEqual([{ type: 'documents.sent', documentIds: ['d1', 'd2'] }]);
    actor.send({ type: 'stream.failed', phase: 'request' });
    actor.send({ type: 'message.submit', text: 'And again', documentIds: [], ...options });
    expect(sent.at(-1)).not.toHaveProperty('document_ids');
    expect(out).toHaveLength(1);
    actor.stop();
  });

  it('takes no empty add (a drop of nothing, a paste without images)', () => {
    const actor = createActor(testMachine(), { input: { conversationId: null } }).start();
    expect(actor.getSnapshot().can({ type: 'files.add', files: [] })).toBe(false);
    actor.send({ type: 'files.add', files: [] });
    expect(actor.getSnapshot().hasTag('attaching')).toBe(false);
    actor.stop();
  });

  it('names the failures: the spec text, then the server reasons', () => {
    expect(uploadFailureText([{ name: 'a.exe', detail: null }])).toBe(DOCUMENT_UPLOAD_FAILED);
    expect(uploadFailureText([{ name: 'a.exe', detail: UPLOAD_TYPE_REFUSED }])).toBe(`${DOCUMENT_UPLOAD_FAILED}: ${UPLOAD_TYPE_REFUSED}`);
    expect(uploadFailureText([{ name: 'a.exe', detail: null }, { name: 'b.exe', detail: null }])).toBe(DOCUMENTS_UPLOAD_FAILED);
    expect(uploadFailureText([{ name: 'a.exe', detail: 'No.' }, { name: 'b.txt', detail: null }])).toBe(`${DOCUMENTS_UPLOAD_FAILED}: a.exe: No.`);
  });

  it('shows the clock stage, or the server stage where it is further along', () => {
    const d = (status: DocumentStatus) => view('d1', 'a.txt', status, null);
    expect(shownStage(0, [])).toBe('Uploading');
    expect(shownStage(0, [d('queued')])).toBe('Uploading');
    expect(shownStage(0, [d('embedding')])).toBe('Creating embeddings');
    expect(shownStage(2, [d('chunking')])).toBe('Creating embeddings');
    // The least advanced unsettled document decides; settled ones hold nothing back.
    expect(shownStage(0, [d('saving'), d('chunking'), d('ready')])).toBe('Chunking text');
    expect(shownStage(1, [d('ready')])).toBe('Chunking text');
    expect(documentPollInput(['d1'])).toEqual({ intervalMs: 1000, maxAttempts: 900, stopOnError: false, checkInput: { ids: ['d1'] } });
  });

  it('runs the spec timings on the clock: Uploading 6 s, Chunking text 6 s, Creating embeddings 8 s, then Saving chunks until ready', async () => {
    vi.useFakeTimers();
    try {
      const actor = createActor(
        uploadMachine.provide({
          actors: {
            uploadFiles: pendingActor<UploadOutcome[], UploadFilesInput>(),
            watch: documentPollMachine.provide({
              actors: {
                check: pendingActor<DocumentView[], DocumentCheckInput>(),
              },
            }),
          },
        }),
        { input: { conversationId: 'c1' } },
      );
      const notices: Notice[] = [];
      actor.on('notice.show', (n) => notices.push(n));
      actor.start();
      actor.send({ type: 'files.add', files: ONE });
      actor.send(done('uploadFiles', [{ name: 'notes.txt', document: view('d1', 'notes.txt', 'queued', 'c1'), detail: null }]));
      expect(uploadStageOf(actor.getSnapshot())).toBe('Uploading');
      await vi.advanceTimersByTimeAsync(UPLOADING_MS - 1);
      expect(uploadStageOf(actor.getSnapshot())).toBe('Uploading');
      await vi.advanceTimersByTimeAsync(1);
      expect(uploadStageOf(actor.getSnapshot())).toBe('Chunking text');
      await vi.advanceTimersByTimeAsync(CHUNKING_MS);
      expect(uploadStageOf(actor.getSnapshot())).toBe('Creating embeddings');
      await vi.advanceTimersByTimeAsync(EMBEDDING_MS);
      expect(uploadStageOf(actor.getSnapshot())).toBe('Saving chunks');
      // Still processing on the server: the overlay stays on the last stage.
      await vi.advanceTimersByTimeAsync(60_000);
      expect(uploadStageOf(actor.getSnapshot())).toBe('Saving chunks');
      actor.send(done('watch', pollEnd('finished', [view('d1', 'notes.txt', 'ready', 'c1')])));
      expect(uploadStageOf(actor.getSnapshot())).toBeNull();
      expect(actor.getSnapshot().context.files.map((f) => f.id)).toEqual(['d1']);
      expect(notices).toEqual([notice('success', DOCUMENT_UPLOADED)]);
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a batch the server refused says why at once, without showing Uploading for 6 s first', () => {
    vi.useFakeTimers();
    try {
      const actor = createActor(
        uploadMachine.provide({ actors: { uploadFiles: pendingActor<UploadOutcome[], UploadFilesInput>() } }),
        { input: { conversationId: null } },
      );
      const notices: Notice[] = [];
      actor.on('notice.show', (n) => notices.push(n));
      actor.start();
      actor.send({ type: 'files.add', files: ONE });
      actor.send(done('uploadFiles', [{ name: 'notes.txt', document: null, detail: UPLOAD_TYPE_REFUSED }]));
      // No time passed: the overlay is gone and the reason is shown.
      expect(uploadStageOf(actor.getSnapshot())).toBeNull();
      expect(notices).toEqual([notice('error', `${DOCUMENT_UPLOAD_FAILED}: ${UPLOAD_TYPE_REFUSED}`)]);
      // A refused call (429 for the whole batch) too.
      actor.send({ type: 'files.add', files: TWO });
      actor.send(failed('uploadFiles', loadFailure('HTTP 429', 'Too many uploads. Please try again in 1 minute.')));
      expect(uploadStageOf(actor.getSnapshot())).toBeNull();
      expect(notices.at(-1)?.text).toBe(`${DOCUMENTS_UPLOAD_FAILED}: report.pdf, photo.png: Too many uploads. Please try again in 1 minute.`);
      // One refused beside one stored: the refusal now, the stored one goes on through its stages.
      actor.send({ type: 'files.add', files: TWO });
      actor.send(
        done('uploadFiles', [
          { name: 'report.pdf', document: null, detail: UPLOAD_TYPE_REFUSED },
          { name: 'photo.png', document: view('d1', 'photo.png', 'ready', null), detail: null },
        ]),
      );
      expect(notices.at(-1)?.text).toBe(`${DOCUMENT_UPLOAD_FAILED}: ${UPLOAD_TYPE_REFUSED}`);
      expect(uploadStageOf(actor.getSnapshot())).toBe('Uploading');
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('files added while a batch attaches are queued and upload as the next batch', async () => {
    vi.useFakeTimers();
    try {
      const inputs: UploadFilesInput[] = [];
      const actor = createActor(
        uploadMachine.provide({ actors: { uploadFiles: pendingActor<UploadOutcome[], UploadFilesInput>((i) => inputs.push(i)) } }),
        { input: { conversationId: null } },
      ).start();
      actor.send({ type: 'files.add', files: ONE });
      expect(actor.getSnapshot().can({ type: 'files.add', files: TWO })).toBe(true);
      actor.send({ type: 'files.add', files: TWO });
      expect(inputs.map((i) => i.files.map((f) => f.name))).toEqual([['notes.txt']]);
      actor.send(done('uploadFiles', [{ name: 'notes.txt', document: view('d1', 'notes.txt', 'ready', null), detail: null }]));
      await vi.advanceTimersByTimeAsync(UPLOADING_MS);
      // The first is listed and the queued two are on their way.
      expect(actor.getSnapshot().context.files.map((f) => f.id)).toEqual(['d1']);
      expect(inputs.map((i) => i.files.map((f) => f.name))).toEqual([['notes.txt'], ['report.pdf', 'photo.png']]);
      expect(uploadStageOf(actor.getSnapshot())).toBe('Uploading');
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a document ready at once still shows Uploading for 6 s, then is listed', async () => {
    vi.useFakeTimers();
    try {
      const actor = createActor(
        uploadMachine.provide({ actors: { uploadFiles: pendingActor<UploadOutcome[], UploadFilesInput>() } }),
        { input: { conversationId: null } },
      ).start();
      actor.send({ type: 'files.add', files: ONE });
      actor.send(done('uploadFiles', [{ name: 'notes.txt', document: view('d1', 'notes.txt', 'ready', null), detail: null }]));
      await vi.advanceTimersByTimeAsync(UPLOADING_MS - 1);
      expect(uploadStageOf(actor.getSnapshot())).toBe('Uploading');
      await vi.advanceTimersByTimeAsync(1);
      expect(actor.getSnapshot().hasTag('attaching')).toBe(false);
      expect(actor.getSnapshot().context.files.map((f) => f.id)).toEqual(['d1']);
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
