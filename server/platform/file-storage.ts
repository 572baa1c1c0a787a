import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ensurePrivateDir } from '../lib/private-files';

/**
 * Where uploaded and generated files live. One interface so S3-compatible storage can be a second
 * implementation (ARCHITECTURE.md, Scale-out). Keys are made by the server (newStorageKey), never from a name a
 * person chose, so no upload can reach a path outside the store.
 */
export interface FileStorage {
  /** Stores the bytes under `key` (made by newStorageKey), replacing nothing: keys are unique. */
  put(key: string, data: Buffer | Readable): Promise<void>;
  /** The whole file. Throws (code ENOENT) when there is none. */
  read(key: string): Promise<Buffer>;
  /** The file as a stream, for downloads. Throws (code ENOENT) when there is none. */
  open(key: string): Promise<Readable>;
  /** Removes the file; a missing one is not an error (deletes are retried after crashes). */
  remove(key: string): Promise<void>;
}

/** A fresh key: a month folder (keeps directories small) and a random name. */
export function newStorageKey(now = new Date()): string {
  const month = now.toISOString().slice(0, 7);
  return `${month}/${randomUUID()}`;
}

const KEY = /^\d{4}-\d{2}\/[0-9a-f-]{36}$/;

/** Keys come from newStorageKey; anything else is a bug, refused before it reaches a disk or a bucket. */
export function checkStorageKey(key: string): void {
  if (!KEY.test(key)) throw new Error('invalid storage key');
}

/** Files under `dir` (DATA_DIR/files by default), owner-only like the rest of DATA_DIR. */
export function createLocalFileStorage(dir: string): FileStorage {
  const pathOf = (key: string) => {
    checkStorageKey(key);
    return path.join(dir, key);
  };
  return {
    async put(key, data) {
      const file = pathOf(key);
      ensurePrivateDir(path.dirname(file));
      const handle = await fs.promises.open(file, 'wx', 0o600);
      try {
        if (Buffer.isBuffer(data)) await handle.writeFile(data);
        else await pipeline(data, handle.createWriteStream());
      } finally {
        await handle.close().catch(() => undefined);
      }
    },
    read: (key) => fs.promises.readFile(pathOf(key)),
    async open(key) {
      const file = pathOf(key);
      // Fails here (ENOENT) rather than on the first read, so a missing file is a 404, not a broken download.
      await fs.promises.access(file, fs.constants.R_OK);
      return fs.createReadStream(file);
    },
    async remove(key) {
      await fs.promises.rm(pathOf(key), { force: true });
    },
  };
}
