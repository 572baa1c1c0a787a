import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../../server/config';
import type { AppContext } from '../../server/context';
import { createDb } from '../../server/db/create-db';
import { migrateToLatest } from '../../server/db/migrate';
import { insertDocument, type DocumentRecord } from '../../server/db/repositories/documents';
import { createBackgroundTasks } from '../../server/platform/background';
import { createLocalFileStorage, newStorageKey } from '../../server/platform/file-storage';
import { seedDemoData } from '../../server/seed';
import { freshDatabase } from './bench-database';

// What the ingestion and retrieval benches share: a migrated, seeded database (SQLite in a temp dir, or a fresh
// PostgreSQL schema) and the parts of the app context ingestion and retrieval use, in this process.

export interface IngestBench {
  backend: 'SQLite' | 'PostgreSQL';
  ctx: AppContext;
  userId: string;
  clientId: string | null;
  /** Stores the bytes and inserts a queued document row of the seeded user. */
  addDocument(filename: string, extension: string, mime: string, bytes: Buffer, conversationId?: string | null): Promise<DocumentRecord>;
  close(): Promise<void>;
}

/** The PostgreSQL URL the benches use, if any (DATABASE_URL or TEST_DATABASE_URL). */
export const benchPgUrl = () => process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;

export async function openIngestBench(pgUrl: string | undefined): Promise<IngestBench> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tanya-bench-ingest-'));
  const database = await freshDatabase(pgUrl);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...(pgUrl ? { DATABASE_URL: database.env.DATABASE_URL } : {}) });
  const db = createDb(config);
  await migrateToLatest(db);
  await seedDemoData(db, { password: 'bench-password-123', publicUrl: config.publicUrl });
  const user = await db.selectFrom('users').select(['id', 'client_id']).where('email', '=', 'user@demo.local').executeTakeFirstOrThrow();
  const noop = () => undefined;
  const log = { level: 'silent', fatal: noop, error: noop, warn: noop, info: noop, debug: noop, trace: noop, silent: noop } as unknown as FastifyBaseLogger;
  (log as unknown as { child: () => FastifyBaseLogger }).child = () => log;
  const files = createLocalFileStorage(path.join(dataDir, 'files'));
  const ctx = { config, db, files, log, background: createBackgroundTasks(log), closing: new AbortController().signal } as unknown as AppContext;
  return {
    backend: pgUrl ? 'PostgreSQL' : 'SQLite',
    ctx,
    userId: user.id,
    clientId: user.client_id,
    async addDocument(filename, extension, mime, bytes, conversationId = null) {
      const key = newStorageKey();
      await files.put(key, bytes);
      return insertDocument(db, {
        user_id: user.id,
        client_id: null,
        department_id: null,
        unit_id: null,
        conversation_id: conversationId,
        filename,
        extension,
        mime,
        size: bytes.length,
        origin: 'upload',
        storage_key: key,
        file_key: key.replace(/\W/g, ''),
        status: 'queued',
      });
    },
    async close() {
      await db.destroy();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
