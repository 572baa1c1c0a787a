import { Worker } from 'node:worker_threads';
import type { Chunk } from './chunk';
import type { ExtractedExtension } from './extract';
import type { ExtractAnswer, ExtractJob } from './extract-worker-main';

/** A file's extraction taking longer than this fails (and the worker is replaced): a 100-page PDF takes about 1 s. */
const EXTRACT_TIMEOUT_MS = 120_000;
/** The worker's heap: a pathological file fails its own extraction instead of exhausting the server's memory. */
const WORKER_HEAP_MB = 1024;

export interface ExtractResult {
  chunks: Chunk[];
  note?: string;
}

export class ExtractionError extends Error {
  override name = 'ExtractionError';
}

interface Pending {
  resolve(result: ExtractResult): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * One worker thread per process, started on first use and shared by every ingestion: extraction is CPU-bound,
 * so more threads than this would only compete with the server's own. Jobs are answered by id; a worker that
 * dies fails the jobs it held and the next job starts a new one.
 */
let worker: Worker | undefined;
const pending = new Map<number, Pending>();
let nextId = 1;

function failAll(err: Error) {
  for (const [id, job] of pending) {
    clearTimeout(job.timer);
    pending.delete(id);
    job.reject(err);
  }
}

function startWorker(): Worker {
  const w = new Worker(new URL('./extract-worker.mjs', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  // Idle, it must not keep the process alive (referenced again while it holds jobs).
  w.unref();
  w.on('message', (answer: ExtractAnswer) => {
    const job = pending.get(answer.id);
    if (!job) return;
    pending.delete(answer.id);
    clearTimeout(job.timer);
    if (pending.size === 0) w.unref();
    if (answer.ok) job.resolve({ chunks: answer.chunks, note: answer.note });
    else job.reject(new ExtractionError(answer.error));
  });
  w.on('error', (err) => {
    if (worker === w) worker = undefined;
    failAll(new ExtractionError(`the extraction worker failed: ${err.message}`));
  });
  w.on('exit', () => {
    if (worker === w) worker = undefined;
    failAll(new ExtractionError('the extraction worker stopped'));
  });
  return w;
}

/** Extracts and chunks a file in the worker thread. Rejects with an ExtractionError whose message says why. */
export function extractInWorker(extension: ExtractedExtension, bytes: Buffer): Promise<ExtractResult> {
  worker ??= startWorker();
  const w = worker;
  const id = nextId++;
  return new Promise<ExtractResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new ExtractionError(`reading the file took longer than ${EXTRACT_TIMEOUT_MS / 1000} s`));
      // It may be stuck in this file: a new worker takes the next job (the others held fail and can be retried).
      if (worker === w) worker = undefined;
      void w.terminate();
    }, EXTRACT_TIMEOUT_MS);
    pending.set(id, { resolve, reject, timer });
    w.ref();
    // A copy is sent (not the Buffer's memory, which may be a slice of Node's shared pool).
    const copy = new ArrayBuffer(bytes.byteLength);
    new Uint8Array(copy).set(bytes);
    const job: ExtractJob = { id, extension, bytes: new Uint8Array(copy) };
    w.postMessage(job, [copy]);
  });
}

/** Stops the worker (tests, benches); the next extraction starts a new one. */
export async function stopExtractionWorker(): Promise<void> {
  const w = worker;
  worker = undefined;
  if (w) await w.terminate();
}
