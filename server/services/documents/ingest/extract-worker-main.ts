import { parentPort } from 'node:worker_threads';
import { chunkSections, type Chunk } from './chunk';
import { extractSections, type ExtractedExtension } from './extract';

// The extraction worker's body (started through extract-worker.mjs): extracts and chunks one file per message, so
// pdf.js and the XML scans never hold the server's event loop.

export interface ExtractJob {
  id: number;
  extension: ExtractedExtension;
  bytes: Uint8Array;
}

export type ExtractAnswer =
  | { id: number; ok: true; chunks: Chunk[]; note?: string }
  | { id: number; ok: false; error: string };

/** Sent once, when the extractors are loaded: a document's time budget starts then, not while the worker starts. */
export interface WorkerReady {
  ready: true;
}

parentPort?.on('message', (job: ExtractJob) => {
  void (async () => {
    let answer: ExtractAnswer;
    try {
      const extracted = await extractSections(job.extension, job.bytes);
      answer = { id: job.id, ok: true, chunks: chunkSections(extracted.sections), note: extracted.note };
    } catch (err) {
      // Only the message: the stack says nothing a reader of the document's status could use.
      answer = { id: job.id, ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    parentPort?.postMessage(answer);
  })();
});

parentPort?.postMessage({ ready: true } satisfies WorkerReady);
