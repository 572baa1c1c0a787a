import { initialTransition, transition, type SnapshotFrom } from 'xstate';
import type { DocumentView } from '../../../contract/documents';
import { MAX_DOCUMENTS_PER_MESSAGE, UPLOAD_TYPE_REFUSED, uploadContentMismatch, type DocumentStatus } from '../../../contract/documents-constants';
import { CLOCK_STATES, uploadMachine } from '../../../machines/upload.machine';
import { coveringPaths, maximalPaths, type Step, type StepPath } from './paths-support';
import type { LeftOut } from '../../model/support/model-paths';

type Snap = SnapshotFrom<typeof uploadMachine>;

export const AFTER = {
  uploading: 'xstate.after.UPLOADING_MS.upload.composer.batch.attaching.clock.uploading',
  chunking: 'xstate.after.CHUNKING_MS.upload.composer.batch.attaching.clock.chunking',
  embedding: 'xstate.after.EMBEDDING_MS.upload.composer.batch.attaching.clock.embedding',
} as const;

/** The conversation the test makes when a path opens one (every path starts on the new-chat screen). */
export const CONVERSATION = 'c1';

/** How the person hands the files over: the machine sees one `files.add`, the screen has three ways in. */
export type Via = 'picker' | 'drop' | 'paste';

export interface ModelFile {
  name: string;
  type: string;
  /** The server's sentence refusing it (415), null when it takes the file. */
  refusal: string | null;
}

export interface FileSet {
  via: Via;
  files: ModelFile[];
}

const note = (name: string): ModelFile => ({ name, type: 'text/plain', refusal: null });

/**
 * What the person adds, and how. Refusals are the real server's (content checked, not the name), so they happen on
 * any deployment. Every stored upload is ingested (an image too), so only a batch refused whole has nothing to
 * watch.
 */
export const FILE_SETS = {
  picked: { via: 'picker', files: [note('minutes.txt')] },
  pasted: { via: 'paste', files: [{ name: 'screenshot.png', type: 'image/png', refusal: null }] },
  // One accepted, one whose content is not text (a program renamed .txt).
  dropped: { via: 'drop', files: [note('agenda.txt'), { name: 'tool.txt', type: 'text/plain', refusal: uploadContentMismatch('.txt') }] },
  refused: { via: 'picker', files: [{ name: 'setup.exe', type: 'application/octet-stream', refusal: UPLOAD_TYPE_REFUSED }] },
  tooMany: { via: 'drop', files: Array.from({ length: MAX_DOCUMENTS_PER_MESSAGE + 1 }, (_, i) => note(`page-${i + 1}.txt`)) },
} satisfies Record<string, FileSet>;
export type FileSetName = keyof typeof FILE_SETS;

const modelFileOf = (name: string): ModelFile => Object.values(FILE_SETS).flatMap((s) => s.files).find((f) => f.name === name)!;

/** Server ids are unique per generated event (the generator reuses one stored snapshot per key). */
let serverIds = 0;
const documentOf = (file: ModelFile, status: DocumentStatus, conversationId: string | null): DocumentView => {
  const id = `d${(serverIds += 1)}`;
  return {
    id,
    filename: file.name,
    size: 1,
    type: file.type,
    created_at: '2026-11-24T10:00:00.000Z',
    file_path_marker: `::document{url="/api/v1/documents/${id}/file" name="${file.name}"}`,
    conversation_id: conversationId,
    status,
    note: null,
    error: null,
    download_url: `/api/v1/documents/${id}/file`,
    preview_url: null,
  };
};

const addFiles = (set: FileSetName): Step => ({
  type: 'files.add',
  set,
  files: FILE_SETS[set].files.map((f) => new File(['model'], f.name, { type: f.type })),
});

const workOf = (s: Snap) => (['sending', 'processing', 'settled'] as const).find((w) => s.matches({ composer: { batch: { attaching: { work: w } } } }));
const clockOf = (s: Snap) => CLOCK_STATES.find((c) => s.matches({ composer: { batch: { attaching: { clock: c } } } }));
const elsewhere = (s: Snap): Step => ({ type: 'conversation.open', conversationId: s.context.conversationId === null ? CONVERSATION : null });

/**
 * Only the orders a browser produces. The server stores a file in milliseconds and ingests a small one within the
 * poll's first second, so a batch's work is settled while 'Uploading' still shows; the clock only runs ahead of a
 * server held back (the browser holds the upload with a route), and then it runs to 'Saving chunks' first. The
 * first check already finds the documents ready (its progress, then the poll's end). One thing at a time: a batch
 * starts beside no delete and a delete beside no batch (the model test covers the regions' interleavings). While
 * 'Uploading' still shows, the person may drop more files than a message takes (refused, the batch goes on).
 *
 * Not generated, because the product's actors never end that way, whatever the server answers (src/features/chat/
 * documents-actors.ts): the upload call breaking (`xstate.error.actor.uploadFiles`: each file's failure, a dropped
 * connection or a 500 included, is that file's refused outcome) and the watch poll breaking
 * (`xstate.error.actor.watch`: a failed status check is not a break, the poll goes on checking).
 */
function eventsFor(s: Snap): Step[] {
  const c = s.context;
  if (s.hasTag('deleting')) {
    return [
      { type: 'xstate.done.actor.deleteDocument', output: undefined, actorId: 'deleteDocument' },
      { type: 'xstate.error.actor.deleteDocument', error: new Error('500'), actorId: 'deleteDocument' },
    ];
  }
  if (!s.hasTag('attaching')) {
    // At most two batches listed: more adds no transition, only browser time.
    const adds = c.files.length < 2 ? (['picked', 'pasted', 'dropped', 'refused'] as const).map(addFiles) : [];
    const listed = c.files[0];
    return [
      ...adds,
      addFiles('tooMany'),
      ...(listed ? [{ type: 'file.delete', id: listed.id, name: listed.filename }] : []),
      // Sending from the new-chat screen opens the conversation it makes: sent from a conversation only.
      ...(listed && c.conversationId !== null ? [{ type: 'attachments.sent', documentIds: c.files.map((f) => f.id) }] : []),
      elsewhere(s),
    ];
  }
  const clock = clockOf(s)!;
  switch (workOf(s)) {
    case 'sending': {
      const stored: Step = {
        type: 'xstate.done.actor.uploadFiles',
        actorId: 'uploadFiles',
        output: c.batch.map((f) => {
          const file = modelFileOf(f.name);
          if (file.refusal) return { name: f.name, document: null, detail: file.refusal };
          return { name: f.name, document: documentOf(file, 'queued', c.conversationId), detail: null };
        }),
      };
      if (clock === 'uploading') return [stored, { type: AFTER.uploading }];
      return clock === 'saving' ? [stored] : [{ type: AFTER[clock] }];
    }
    case 'processing': {
      const ready = c.processing.map((d) => ({ ...d, status: 'ready' as const }));
      if (c.processing.some((d) => d.status !== 'ready')) {
        // Leaving for another conversation while the server ingests cancels the batch.
        return [{ type: 'poll.progress', value: ready }, ...(clock === 'uploading' ? [elsewhere(s)] : [])];
      }
      return [{ type: 'xstate.done.actor.watch', actorId: 'watch', output: { status: 'finished', value: ready, error: null, attempts: 1 } }];
    }
    default: {
      // A file picked while the pasted image still shows 'Uploading' waits for the next batch (once a path: each
      // batch is 6 s or more). Offered once the server answered, so no held upload is mistaken for it.
      const queue = c.batch[0]?.name === 'screenshot.png' && c.queued.length === 0 && c.files.length === 0 ? [addFiles('picked'), addFiles('tooMany')] : [];
      // Settled: only 'Uploading' holds the batch (any later stage ends it at once).
      return clock === 'uploading' ? [{ type: AFTER.uploading }, ...queue] : [];
    }
  }
}


/**
 * The screen's ways in that one machine event stands for: each file set (picked, dropped, pasted; refused, too many)
 * seen to its end, a batch cancelled, and each conversation change (to a new chat, to a conversation).
 */
function waysOf(path: { input: { conversationId: string | null }; events: Step[] }): string[] {
  let [s] = initialTransition(uploadMachine, path.input);
  let set = '';
  const ways: string[] = [];
  for (const e of path.events) {
    const before = s;
    [s] = transition(uploadMachine, s, e as never);
    if (e.type === 'files.add') set = e.set as string;
    if (e.type === 'conversation.open') ways.push(`open:${String(e.conversationId)}`);
    if (e.type === 'files.add' && !s.hasTag('attaching')) ways.push(`set:${set}`);
    else if (before.hasTag('attaching') && !s.hasTag('attaching')) ways.push(e.type === 'conversation.open' ? 'cancel' : `set:${set}`);
  }
  return ways;
}

/**
 * The covering paths (every state and transition the generated paths reach), plus, greedily, the fewest paths that
 * take each way in the others leave out: the machine cannot tell a drop from a paste, the screen can.
 */
function withEveryWay<P extends { input: { conversationId: string | null }; events: Step[] }>(covering: P[], all: P[]): P[] {
  const kept = [...covering];
  const done = new Set(kept.flatMap(waysOf));
  for (;;) {
    const gain = (p: P) => new Set(waysOf(p).filter((w) => !done.has(w))).size;
    const best = all.filter((p) => !kept.includes(p) && gain(p) > 0).sort((a, b) => gain(b) - gain(a) || a.events.length - b.events.length)[0];
    if (!best) return kept;
    kept.push(best);
    waysOf(best).forEach((w) => done.add(w));
  }
}

const generated = maximalPaths({
  machine: uploadMachine,
  inputs: [{ conversationId: null }],
  events: eventsFor as never,
  key: (s) =>
    JSON.stringify([
      s.value,
      s.context.conversationId,
      s.context.files.length,
      s.context.batch.map((f) => f.name),
      s.context.processing.map((d) => d.status),
      s.context.queued.map((f) => f.name),
    ]),
  simpleKey: (s) => JSON.stringify([workOf(s) ?? 'idle', s.hasTag('deleting'), s.context.conversationId, Math.min(s.context.files.length, 1)]),
  edgeKeys: true,
});

type Generated = (typeof generated)[number];

/** Where a path's events lead, by what the screen shows (the state and the counts of files in each role). */
const endKey = (input: { conversationId: string | null }, events: unknown[]) => {
  let [s] = initialTransition(uploadMachine, input);
  for (const e of events) [s] = transition(uploadMachine, s, e as never);
  const c = s.context;
  return JSON.stringify([s.value, c.conversationId, c.files.length, c.batch.length, c.queued.length, c.processing.length]);
};

/**
 * The generator ends a path at a transition that keeps the state (files refused, too many) or that comes back to
 * the start (the only listed file deleted), so each would cost a sign-in and a page load of its own.
 * Played inside another path instead: a self-transition where a longer path passes through the same state, a path
 * back at the start followed by another path. The replay checks each join leads where the parts did.
 */
function joined(paths: Generated[]): Generated[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const out: Generated[] = [];
  const used = new Set<Generated>();
  const join = (events: Generated['events'], parts: Generated[]) => {
    parts.forEach((p) => used.add(p));
    out.push({ ...parts[0]!, events, values: [], description: events.map((e) => e.type).join(' → ') });
  };
  for (const p of paths) {
    if (used.has(p) || !p.events.length) continue;
    const head = p.events.slice(0, -1);
    const last = p.events.at(-1)!;
    if (endKey(p.input, p.events) === endKey(p.input, head)) {
      const q = paths.find((o) => o !== p && !used.has(o) && o.events.length > head.length && head.every((e, i) => same(e, o.events[i])) && !same(o.events[head.length], last));
      if (q) join([...head, last, ...q.events.slice(head.length)], [p, q]);
    } else if (endKey(p.input, p.events) === endKey(p.input, [])) {
      // The shortest other path (itself joined or not: the covering choice keeps whichever reaches more).
      const q = paths.filter((o) => o !== p && o.events.length > 1 && same(o.input, p.input)).sort((a, b) => a.events.length - b.events.length)[0];
      if (q) join([...p.events, ...q.events], [p, q]);
    }
  }
  return out;
}

export { uploadMachine };
const candidates = [...joined(generated), ...generated];
export const uploadPaths: StepPath<{ conversationId: string | null }>[] = withEveryWay(
  coveringPaths(uploadMachine, candidates) as unknown as StepPath<{ conversationId: string | null }>[],
  candidates as unknown as StepPath<{ conversationId: string | null }>[],
);

/** What the product's actors never do, whatever the server answers (test/e2e/paths/coverage.ts counts the rest). */
export const uploadUnforceable: LeftOut[] = [
  {
    why: "the upload call breaking: each file's failure, a dropped connection or a 500 included, is that file's refused outcome",
    transitions: ['upload.composer.batch.attaching.work.sending --xstate.error.actor.uploadFiles#2--> upload.composer.batch.attaching.work.settled'],
  },
  {
    why: 'the watch poll breaking: a failed status check is not a break, the poll goes on checking',
    transitions: ['upload.composer.batch.attaching.work.processing --xstate.error.actor.watch#2--> upload.composer.batch.attaching.work.settled'],
  },
];
