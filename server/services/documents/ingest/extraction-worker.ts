import { Worker } from 'node:worker_threads';
import type { Chunk } from './chunk';
import type { ExtractedExtension } from './extract';
import type { ExtractAnswer, ExtractJob, WorkerReady } from './extract-worker-main';

/** Each worker's heap: a pathological file fails its own extraction instead of exhausting the server's memory. */
const WORKER_HEAP_MB = 1024;
/**
 * A new worker loads the extractors (pdf.js, mammoth: about a second, several on a busy machine) before a budget
 * starts; one that is not ready after this long fails the job it was given.
 */
const WORKER_START_LIMIT_MS = 60_000;

/** EXTRACTION_TIMEOUT_MS and EXTRACTION_WORKERS (config.documents.extraction). */
export interface ExtractionLimits {
  /** How long one document's extraction may run (a 100-page PDF takes about 1 s), counted from when a worker starts it. */
  timeoutMs: number;
  /** How many documents are extracted at once, each in a worker thread of its own. */
  workers: number;
}

export interface ExtractResult {
  chunks: Chunk[];
  note?: string;
}

export class ExtractionError extends Error {
  override name = 'ExtractionError';
}

interface Job {
  id: number;
  extension: ExtractedExtension;
  bytes: ArrayBuffer;
  timeoutMs: number;
  resolve(result: ExtractResult): void;
  reject(err: Error): void;
}

/** A worker thread and the one job it is running, if any. */
interface Slot {
  worker: Worker;
  /** Its extractors are loaded (it said so). */
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
}

/**
 * A pool of worker threads per process, started as jobs need them and shared by every ingestion. Each worker runs
 * one document at a time and jobs wait in order for a free one. A document's time budget is its own: one that
 * overruns is failed and only the worker running it is stopped (pdf.js or a scan may be stuck in it); a worker
 * that dies fails only the job it ran. Either way a new worker takes the next job, and the waiting jobs are
 * untouched. Idle workers do not keep the process alive.
 */
const slots = new Set<Slot>();
const queue: Job[] = [];
let maxWorkers = 1;
let nextId = 1;

function startSlot(): Slot {
  const worker = new Worker(new URL('./extract-worker.mjs', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  const slot: Slot = { worker, ready: false };
  worker.unref();
  worker.on('message', (answer: ExtractAnswer | WorkerReady) => {
    if ('ready' in answer) {
      slot.ready = true;
      if (slot.job) startBudget(slot, slot.job, slot.job.timeoutMs);
      return;
    }
    const job = slot.job;
    if (!job || answer.id !== job.id) return;
    finish(slot);
    if (answer.ok) job.resolve({ chunks: answer.chunks, note: answer.note });
    else job.reject(new ExtractionError(answer.error));
    dispatch();
  });
  worker.on('error', (err) => retire(slot, new ExtractionError(`the extraction worker failed: ${err.message}`)));
  worker.on('exit', () => retire(slot, new ExtractionError('the extraction worker stopped')));
  slots.add(slot);
  return slot;
}

/** The slot's job is done (answered or failed): the worker is free and may idle. */
function finish(slot: Slot) {
  clearTimeout(slot.timer);
  slot.job = undefined;
  slot.timer = undefined;
  slot.worker.unref();
}

/** A worker that errs or exits leaves the pool; its own job (only) fails with `err`. */
function retire(slot: Slot, err: Error) {
  if (!slots.delete(slot)) return;
  const job = slot.job;
  finish(slot);
  job?.reject(err);
  dispatch();
}

/** The job fails after `ms` unless answered: its worker alone is stopped (it may be stuck in this file). */
function startBudget(slot: Slot, job: Job, ms: number) {
  clearTimeout(slot.timer);
  slot.timer = setTimeout(() => {
    slots.delete(slot);
    finish(slot);
    job.reject(
      new ExtractionError(slot.ready ? `reading the file took longer than ${formatSeconds(ms)}` : 'the extraction worker did not start'),
    );
    void slot.worker.terminate();
    dispatch();
  }, ms);
}

function run(slot: Slot, job: Job) {
  slot.job = job;
  slot.worker.ref();
  // A worker still starting gets the job now (it reads it once loaded); the budget starts when it is ready.
  startBudget(slot, job, slot.ready ? job.timeoutMs : Math.max(job.timeoutMs, WORKER_START_LIMIT_MS));
  const message: ExtractJob = { id: job.id, extension: job.extension, bytes: new Uint8Array(job.bytes) };
  slot.worker.postMessage(message, [job.bytes]);
}

/** Hands waiting jobs to idle workers, starting workers up to the pool's size. */
function dispatch() {
  while (queue.length > 0) {
    let busy = 0;
    let idle: Slot | undefined;
    for (const slot of slots) {
      if (slot.job) busy++;
      else idle ??= slot;
    }
    if (busy >= maxWorkers) return;
    run(idle ?? startSlot(), queue.shift()!);
  }
}

const formatSeconds = (ms: number) => `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))} s`;

/**
 * Extracts and chunks a file in a worker thread, within the document's own time budget. Rejects with an
 * ExtractionError whose message says why. The pool's size follows the latest call's `workers` (one app per process).
 */
export function extractInWorker(extension: ExtractedExtension, bytes: Buffer, limits: ExtractionLimits): Promise<ExtractResult> {
  maxWorkers = Math.max(1, limits.workers);
  return new Promise<ExtractResult>((resolve, reject) => {
    // A copy is sent (not the Buffer's memory, which may be a slice of Node's shared pool).
    const copy = new ArrayBuffer(bytes.byteLength);
    new Uint8Array(copy).set(bytes);
    queue.push({ id: nextId++, extension, bytes: copy, timeoutMs: limits.timeoutMs, resolve, reject });
    dispatch();
  });
}

/** Stops every extraction worker (tests, benches): running and waiting jobs fail; the next extraction starts anew. */
export async function stopExtractionWorkers(): Promise<void> {
  const stopped = new ExtractionError('the extraction workers were stopped');
  for (const job of queue.splice(0)) job.reject(stopped);
  const all = [...slots];
  for (const slot of all) {
    slots.delete(slot);
    const job = slot.job;
    finish(slot);
    job?.reject(stopped);
  }
  await Promise.all(all.map((slot) => slot.worker.terminate()));
}
