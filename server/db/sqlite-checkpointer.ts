import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the WAL is copied back into the database file. */
export const CHECKPOINT_INTERVAL_MS = 1_000;

/**
 * Runs in the worker: its own connection to the database, checkpointing now and then. PASSIVE never waits for
 * (or blocks) the app's writes; whatever a round cannot copy is copied by the next one.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 5000');
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or failing now: the next round tries again, and SQLite checkpoints on close anyway.
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * SQLite checkpoints the WAL into the database file inside a commit, once the WAL has grown past
 * wal_autocheckpoint pages: that commit then copies and syncs megabytes while the event loop waits (under a
 * thousand streaming replies, the slowest moments of the server). Here the app's connection never
 * checkpoints (wal_autocheckpoint = 0, set by the caller) and a worker thread does it instead, off the loop.
 */
export function startCheckpointer(path: string): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, driver, intervalMs: CHECKPOINT_INTERVAL_MS } });
  worker.unref();
  // A worker that cannot run leaves the WAL growing until the app's connection closes (which checkpoints).
  worker.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    stop() {
      worker.postMessage('stop');
      return exited;
    },
  };
}
