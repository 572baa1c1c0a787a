import {
  and,
  assertEvent,
  assign,
  enqueueActions,
  not,
  or,
  setup,
  stateIn,
  type DoneActorEvent,
  type ErrorActorEvent,
  type SnapshotFrom,
} from 'xstate';
import type { MessageDocument } from '../contract/chat';
import type { DocumentView } from '../contract/documents';
import {
  DOCUMENT_DELETE_FAILED,
  DOCUMENT_DELETED,
  DOCUMENT_UPLOAD_FAILED,
  DOCUMENT_UPLOADED,
  DOCUMENTS_UPLOAD_FAILED,
  DOCUMENTS_UPLOADED,
  MAX_DOCUMENTS_PER_MESSAGE,
  UPLOAD_STAGE_MS,
  UPLOAD_STAGES,
  type DocumentStatus,
  type UploadStage,
} from '../contract/documents-constants';
import { serverDetailOf } from './load-failure';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { pollMachine, type PollInput, type PollOutput, type PollProgress } from './poll.machine';
import { report, type ReportsTo } from './report';

/**
 * The composer's attachments (spec chat-and-session.md "Chat input box"; section 4 "Sending a message" rules 6
 * and 7, "Upload progress stages"; section 8 Documents; section 9 stage durations): the files listed for the next
 * message and the upload of the files the person adds. The chat-screen machine invokes it (id `upload`) for its
 * whole life, forwards `files.add`, `file.delete` and `attachments.sent` to it, and tells it which conversation
 * is open (`conversation.open`): another one (a new chat included) cancels the upload in flight and empties the
 * list, the same one changes nothing.
 *
 * `composer` (parallel; re-entered by `conversation.open`):
 * - `batch`: `idle` | `attaching` (tag `attaching`). `files.add` (one or more files: picked, dropped or pasted)
 *   starts a batch; another is not taken until it ends. `attaching` is parallel:
 *   - `work`: `sending` (invokes `uploadFiles`: every file of the batch, into the conversation or, on the new-chat
 *     screen, without one; its outcome per file is the stored document or the server's refusal) -> `processing`
 *     (invokes `watch`, the poll machine: GET each stored document until every one is `ready` or `failed`;
 *     each answer's `poll.progress` updates their statuses) -> `settled`. A batch whose uploads were all refused
 *     has nothing to watch.
 *   - `clock`: the spec's stages as timings: `uploading` (UPLOADING_MS) -> `chunking` (CHUNKING_MS) ->
 *     `embedding` (EMBEDDING_MS) -> `saving` (until the work is settled).
 *   The batch ends when the work is settled and `uploading` has shown for at least its 6 s (the overlay never
 *   flashes), and not before: a slow server keeps it in `saving`. A batch the server refused outright (every file
 *   turned away by type, size, quota or rate, or the call itself failed) has nothing to show stages for: it ends
 *   as soon as the answer is in, with its error (waiting out the clock showed 'Uploading' for 6 s first). Files
 *   refused beside stored ones are reported at once too; the stored ones go on. The stage shown ({@link uploadStageOf}) is the
 *   clock's, or the server's where it is further along (a document being saved shows 'Saving chunks' even if the
 *   clock is still in its first stage); documents already ready no longer hold the stage back.
 *   Files added while a batch attaches (picked, dropped or pasted) wait in `queued` and start the next batch as
 *   soon as this one ends (within the message's limit, counting the listed, attaching and queued files).
 *   At the end the ready documents join the list; 'Document uploaded successfully' / 'Documents uploaded
 *   successfully' for them, 'Failed to upload document' / 'Failed to upload documents' for the others, followed
 *   by the server's reason when it gave one (the 413/415 sentences, a failed ingestion's `error`); in a
 *   conversation `documents.changed` (its documents list has new entries).
 * - `removal`: `idle` | `deleting` (tag `deleting`; `deletingDocumentId`). `file.delete` of a listed file invokes
 *   `deleteDocument` -> 'Document deleted successfully' and it leaves the list (in a conversation also
 *   `documents.changed`), or 'Failed to delete document' and it stays. One at a time.
 *
 * `attachments.sent` (chat-send took a message carrying these ids) takes them off the list.
 *
 * Reported (machines/report.ts: emitted, and sent to the parent): `notice.show`, `documents.changed`, and
 * `attachments.changed` with the listed ids (and their names and types, for the sent question's chips) and whether a batch is attaching, whenever either changes: the screen
 * keeps them for its `message.submit` guard (send is disabled while attaching) and the send's `document_ids`.
 */

/** How long each timed stage shows at least (spec section 9), named so tests can drive them. */
export const [UPLOADING_MS, CHUNKING_MS, EMBEDDING_MS] = UPLOAD_STAGE_MS;
/** Between two status checks of the documents being processed. */
export const DOCUMENT_POLL_INTERVAL_MS = 1000;
/** Checks before the batch gives up on documents still processing (15 minutes: long audio is transcribed). */
export const MAX_DOCUMENT_POLL_ATTEMPTS = 900;

/** Beyond the spec (which names no limit): a message brings at most MAX_DOCUMENTS_PER_MESSAGE files. */
export const tooManyFiles = (max: number) => `A message can bring at most ${max} documents`;

export interface UploadInput extends ReportsTo {
  conversationId: string | null;
}

/** `uploadFiles`' input: the batch, and where it goes (null: the new-chat screen, POST /documents/). */
export interface UploadFilesInput {
  conversationId: string | null;
  files: File[];
}

/** One file's upload: the stored document, or the refusal (`detail`: the server's sentence, else null). */
export type UploadOutcome = { name: string; document: DocumentView; detail: null } | { name: string; document: null; detail: string | null };

/** A file that did not make it, and the server's reason when it gave one. */
export interface UploadFailure {
  name: string;
  detail: string | null;
}

/** The watch poll's `check` input: the documents to look up. Its answer is their current views. */
export interface DocumentCheckInput {
  ids: string[];
}

export interface DeleteFileInput {
  id: string;
}

export interface UploadContext extends ReportsTo {
  conversationId: string | null;
  /** Ready documents listed for the next message, in the order they were added. */
  files: DocumentView[];
  /** The batch being uploaded (empty when none). */
  batch: File[];
  /** Files added while a batch attaches: the next batch. */
  queued: File[];
  /** The batch's stored documents as the server last described them. */
  processing: DocumentView[];
  /** The listed file being deleted (its delete button shows a spinner). */
  deletingDocumentId: string | null;
}

export type UploadEvent =
  | { type: 'conversation.open'; conversationId: string | null }
  | { type: 'files.add'; files: File[] }
  | { type: 'file.delete'; id: string }
  /** From the screen: chat-send took a message carrying these documents. */
  | { type: 'attachments.sent'; documentIds: string[] }
  /** From `watch` after each check. */
  | PollProgress<DocumentView[]>;

type ActorOutcome =
  | DoneActorEvent<UploadOutcome[], 'uploadFiles'>
  | ErrorActorEvent<unknown, 'uploadFiles'>
  | DoneActorEvent<PollOutput<DocumentView[]>, 'watch'>
  | ErrorActorEvent<unknown, 'watch'>
  | DoneActorEvent<unknown, 'deleteDocument'>
  | ErrorActorEvent<unknown, 'deleteDocument'>;

export interface AttachmentsChanged {
  type: 'attachments.changed';
  documentIds: string[];
  /** The listed files as the question that carries them shows them (name, type, size). */
  documents: MessageDocument[];
  attaching: boolean;
}

/** A listed file as a sent question's chip shows it. */
export const messageDocumentOf = ({ id, filename, type, size }: DocumentView): MessageDocument => ({ id, filename, type, size });

/** The open conversation's documents changed (an upload finished, a document was deleted). */
export interface DocumentsChanged {
  type: 'documents.changed';
}

export type UploadReported = Notice | AttachmentsChanged | DocumentsChanged;

const SETTLED: ReadonlySet<DocumentStatus> = new Set(['ready', 'failed']);
const isSettled = (d: DocumentView) => SETTLED.has(d.status);

/** The stage each server status is in (UPLOAD_STAGES' order); settled documents hold nothing back. */
const STATUS_STAGE: Partial<Record<DocumentStatus, number>> = { queued: 0, chunking: 1, embedding: 2, saving: 3 };

/** The clock's states, in UPLOAD_STAGES' order. */
export const CLOCK_STATES = ['uploading', 'chunking', 'embedding', 'saving'] as const;

/** The stage to show: the clock's, or the least advanced unsettled document's where that is further along. */
export function shownStage(clockStage: number, processing: DocumentView[]): UploadStage {
  const server = processing.flatMap((d) => (STATUS_STAGE[d.status] === undefined ? [] : [STATUS_STAGE[d.status]!]));
  const serverStage = server.length ? Math.min(...server) : 0;
  return UPLOAD_STAGES[Math.max(clockStage, serverStage)]!;
}

/** Most file names a failure toast lists for one reason; the rest are counted. */
export const NAMES_PER_REASON = 3;

/**
 * The toast after a batch's failures: the spec's text, then the server's reasons when it gave any. Files refused
 * for the same reason (a burst past the upload limit, a full storage) share it: "a.pdf, b.pdf, c.pdf and 7 more:
 * Too many uploads. ..." rather than the sentence once per file.
 */
export function uploadFailureText(failures: UploadFailure[]): string {
  const reasons = failures.filter((f) => f.detail !== null);
  if (failures.length === 1) return reasons.length ? `${DOCUMENT_UPLOAD_FAILED}: ${reasons[0]!.detail}` : DOCUMENT_UPLOAD_FAILED;
  if (!reasons.length) return DOCUMENTS_UPLOAD_FAILED;
  const namesByReason = new Map<string, string[]>();
  for (const f of reasons) namesByReason.set(f.detail!, [...(namesByReason.get(f.detail!) ?? []), f.name]);
  const parts = [...namesByReason].map(([detail, names]) => {
    const more = names.length - NAMES_PER_REASON;
    const listed = names.slice(0, NAMES_PER_REASON).join(', ');
    return `${more > 0 ? `${listed} and ${more} more` : listed}: ${detail}`;
  });
  return `${DOCUMENTS_UPLOAD_FAILED}: ${parts.join('; ')}`;
}

/** The watch poll: finished when every document is ready or failed. */
export const documentPollMachine = pollMachine.provide({
  guards: { isFinished: (_, { value }) => (value as DocumentView[]).every(isSettled) },
});

export function documentPollInput(ids: string[]): PollInput<DocumentCheckInput> {
  return { intervalMs: DOCUMENT_POLL_INTERVAL_MS, maxAttempts: MAX_DOCUMENT_POLL_ATTEMPTS, stopOnError: false, checkInput: { ids } };
}

const freshContext = (conversationId: string | null): UploadContext => ({
  conversationId,
  files: [],
  batch: [],
  queued: [],
  processing: [],
  deletingDocumentId: null,
});

/** Replaces the processing documents the server described again. */
const withUpdates = (processing: DocumentView[], updates: DocumentView[]) =>
  processing.map((d) => updates.find((u) => u.id === d.id) ?? d);

const reportDocumentsChanged = report(() => ({ type: 'documents.changed' }) satisfies DocumentsChanged);

export const uploadMachine = setup({
  types: {
    context: {} as UploadContext,
    events: {} as UploadEvent | ActorOutcome,
    input: {} as UploadInput,
    emitted: {} as UploadReported,
    tags: {} as 'attaching' | 'deleting',
    children: {} as { uploadFiles: 'uploadFiles'; watch: 'watch'; deleteDocument: 'deleteDocument' },
  },
  actors: {
    uploadFiles: notProvided<UploadOutcome[], UploadFilesInput>('uploadFiles'),
    // src/ provides it as documentPollMachine.provide({ actors: { check } }).
    watch: documentPollMachine,
    deleteDocument: notProvided<unknown, DeleteFileInput>('deleteDocument'),
  },
  delays: {
    UPLOADING_MS,
    CHUNKING_MS,
    EMBEDDING_MS,
  },
  guards: {
    isAnotherConversation: ({ context, event }) => {
      assertEvent(event, 'conversation.open');
      return event.conversationId !== context.conversationId;
    },
    hasFiles: ({ event }) => {
      assertEvent(event, 'files.add');
      return event.files.length > 0;
    },
    fitsInMessage: ({ context, event }) => {
      assertEvent(event, 'files.add');
      return context.files.length + context.batch.length + context.queued.length + event.files.length <= MAX_DOCUMENTS_PER_MESSAGE;
    },
    hasQueued: ({ context }) => context.queued.length > 0,
    /** The batch's work is done and nothing of it was stored: no stage to show, its refusal is due now. */
    nothingStored: ({ context }) => context.processing.length === 0,
    isListed: ({ context, event }) => {
      assertEvent(event, 'file.delete');
      return context.files.some((f) => f.id === event.id);
    },
    /** Every stored document is settled already (or none was stored): nothing to watch. */
    nothingToWatch: ({ event }) => {
      assertEvent(event, 'xstate.done.actor.uploadFiles');
      return event.output.every((o) => o.document === null || isSettled(o.document));
    },
  },
  actions: {
    openConversation: assign(({ event }) => {
      assertEvent(event, 'conversation.open');
      return freshContext(event.conversationId);
    }),
    startBatch: assign(({ event }) => {
      assertEvent(event, 'files.add');
      return { batch: event.files, processing: [] };
    }),
    queueFiles: assign(({ context, event }) => {
      assertEvent(event, 'files.add');
      return { queued: [...context.queued, ...event.files] };
    }),
    startQueued: assign(({ context }) => ({ batch: context.queued, queued: [], processing: [] })),
    /**
     * The stored files go on to be watched; the refused ones are told at once (the server's answer is final: no
     * stage the overlay could show would change it).
     */
    applyUploads: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'xstate.done.actor.uploadFiles');
      const failures = event.output.flatMap((o) => (o.document ? [] : [{ name: o.name, detail: o.detail }]));
      enqueue.assign({ processing: event.output.flatMap((o) => (o.document ? [o.document] : [])) });
      if (failures.length) enqueue(report(() => notice('error', uploadFailureText(failures))));
    }),
    /** The upload call itself broke: every file of the batch failed, for the same reason, told at once. */
    failUploads: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'xstate.error.actor.uploadFiles');
      const detail = serverDetailOf(event.error);
      enqueue.assign({ processing: [] });
      enqueue(report(() => notice('error', uploadFailureText(context.batch.map((f) => ({ name: f.name, detail }))))));
    }),
    applyProgress: assign(({ context, event }) => {
      assertEvent(event, 'poll.progress');
      return { processing: withUpdates(context.processing, event.value) };
    }),
    applyWatchEnd: assign(({ context, event }) => {
      assertEvent(event, 'xstate.done.actor.watch');
      return { processing: event.output.value ? withUpdates(context.processing, event.output.value) : context.processing };
    }),
    /** Ready documents join the list; the rest (failed, or still processing when the poll gave up) are failures. */
    finishBatch: enqueueActions(({ context, enqueue }) => {
      const ready = context.processing.filter((d) => d.status === 'ready');
      const failures = context.processing.filter((d) => d.status !== 'ready').map((d) => ({ name: d.filename, detail: d.error }));
      enqueue.assign({ files: [...context.files, ...ready], batch: [], processing: [] });
      if (ready.length) enqueue(report(() => notice('success', ready.length === 1 ? DOCUMENT_UPLOADED : DOCUMENTS_UPLOADED)));
      if (failures.length) enqueue(report(() => notice('error', uploadFailureText(failures))));
      if (context.conversationId !== null && context.processing.length) enqueue(reportDocumentsChanged);
    }),
    reportTooMany: report(() => notice('error', tooManyFiles(MAX_DOCUMENTS_PER_MESSAGE))),
    startDeleting: assign(({ event }) => {
      assertEvent(event, 'file.delete');
      return { deletingDocumentId: event.id };
    }),
    removeDeleted: assign(({ context }) => ({ files: context.files.filter((f) => f.id !== context.deletingDocumentId) })),
    endDeleting: assign({ deletingDocumentId: null }),
    removeSent: assign(({ context, event }) => {
      assertEvent(event, 'attachments.sent');
      return { files: context.files.filter((f) => !event.documentIds.includes(f.id)) };
    }),
    reportDocumentsChanged: enqueueActions(({ context, enqueue }) => {
      if (context.conversationId !== null) enqueue(reportDocumentsChanged);
    }),
    /** A batch is attaching exactly while it has files (set when it starts, emptied when it ends). */
    reportAttachments: report(({ context }: { context: UploadContext }) => ({
      type: 'attachments.changed',
      documentIds: context.files.map((f) => f.id),
      documents: context.files.map(messageDocumentOf),
      attaching: context.batch.length > 0,
    }) satisfies AttachmentsChanged),
  },
}).createMachine({
  id: 'upload',
  context: ({ input }) => ({ ...freshContext(input.conversationId), parent: input.parent }),
  initial: 'composer',
  on: {
    // Re-entering `composer` stops the upload, the watch and a delete in flight.
    'conversation.open': { guard: 'isAnotherConversation', target: '.composer', reenter: true, actions: 'openConversation' },
  },
  states: {
    composer: {
      description: 'The input box of the open conversation (or the new chat) with its attached files.',
      type: 'parallel',
      on: {
        'attachments.sent': { actions: ['removeSent', 'reportAttachments'] },
      },
      states: {
        batch: {
          description: 'Attaching files to the next message.',
          initial: 'idle',
          states: {
            idle: {
              description: 'No file is attaching: the listed files wait for the next message.',
              entry: 'reportAttachments',
              // Files added during the last batch are the next one.
              always: { guard: 'hasQueued', target: 'attaching', actions: 'startQueued' },
              on: {
                'files.add': [
                  { guard: and(['hasFiles', 'fitsInMessage']), target: 'attaching', actions: 'startBatch' },
                  { guard: 'hasFiles', actions: 'reportTooMany' },
                ],
              },
            },
            attaching: {
              description: 'Files are being attached: the overlay shows their stage and Send waits.',
              tags: ['attaching'],
              type: 'parallel',
              entry: 'reportAttachments',
              // The work is done and 'Uploading' has shown for its time (the clock left its first stage), or nothing
              // was stored (the refusal was told as the answer came).
              always: {
                guard: and([
                  stateIn({ composer: { batch: { attaching: { work: 'settled' } } } }),
                  or(['nothingStored', not(stateIn({ composer: { batch: { attaching: { clock: 'uploading' } } } }))]),
                ]),
                target: 'idle',
                actions: 'finishBatch',
              },
              on: {
                'files.add': [
                  { guard: and(['hasFiles', 'fitsInMessage']), actions: 'queueFiles' },
                  { guard: 'hasFiles', actions: 'reportTooMany' },
                ],
              },
              states: {
                work: {
                  description: 'What the server has done with the batch.',
                  initial: 'sending',
                  states: {
                    sending: {
                      description: 'The files are being uploaded.',
                      invoke: {
                        id: 'uploadFiles',
                        src: 'uploadFiles',
                        input: ({ context }) => ({ conversationId: context.conversationId, files: context.batch }),
                        onDone: [
                          { guard: 'nothingToWatch', target: 'settled', actions: 'applyUploads' },
                          { target: 'processing', actions: 'applyUploads' },
                        ],
                        onError: { target: 'settled', actions: 'failUploads' },
                      },
                    },
                    processing: {
                      description: 'The stored files are being read and indexed by the server, checked until each is ready or failed.',
                      invoke: {
                        id: 'watch',
                        src: 'watch',
                        input: ({ context, self }) => ({ ...documentPollInput(context.processing.filter((d) => !isSettled(d)).map((d) => d.id)), parent: self }),
                        onDone: { target: 'settled', actions: 'applyWatchEnd' },
                        // The poll itself broke (not a failed check): what is not settled counts as failed.
                        onError: 'settled',
                      },
                      on: { 'poll.progress': { actions: 'applyProgress' } },
                    },
                    settled: { description: 'Every file of the batch is ready or failed.' },
                  },
                },
                clock: {
                  description: 'The stage the overlay shows, moving on at the spec pace.',
                  initial: 'uploading',
                  states: {
                    uploading: { description: 'The overlay says the files are uploading.', after: { UPLOADING_MS: 'chunking' } },
                    chunking: { description: 'The overlay says the documents are being split into chunks.', after: { CHUNKING_MS: 'embedding' } },
                    embedding: { description: 'The overlay says the documents are being embedded.', after: { EMBEDDING_MS: 'saving' } },
                    saving: { description: 'The overlay says the documents are being saved, until the batch is settled.' },
                  },
                },
              },
            },
          },
        },
        removal: {
          description: 'Removing a listed file.',
          initial: 'idle',
          states: {
            idle: {
              description: 'No listed file is being deleted.',
              on: { 'file.delete': { guard: 'isListed', target: 'deleting', actions: 'startDeleting' } },
            },
            deleting: {
              description: 'A listed file is being deleted (its delete button shows a spinner).',
              tags: ['deleting'],
              invoke: {
                id: 'deleteDocument',
                src: 'deleteDocument',
                input: ({ context }) => ({ id: context.deletingDocumentId as string }),
                onDone: {
                  target: 'idle',
                  actions: [
                    'removeDeleted',
                    'endDeleting',
                    report(() => notice('success', DOCUMENT_DELETED)),
                    'reportAttachments',
                    'reportDocumentsChanged',
                  ],
                },
                onError: { target: 'idle', actions: ['endDeleting', report(() => notice('error', DOCUMENT_DELETE_FAILED))] },
              },
            },
          },
        },
      },
    },
  },
});

export type UploadMachine = typeof uploadMachine;
export type UploadSnapshot = SnapshotFrom<UploadMachine>;

/** The stage the overlay shows while attaching, else null. */
export function uploadStageOf(snapshot: UploadSnapshot): UploadStage | null {
  if (!snapshot.hasTag('attaching')) return null;
  const clock = CLOCK_STATES.findIndex((c) => snapshot.matches({ composer: { batch: { attaching: { clock: c } } } }));
  return shownStage(Math.max(clock, 0), snapshot.context.processing);
}
