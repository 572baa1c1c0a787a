import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp, type BuildAppOptions } from '../../../server/app';
import { createBullJobQueue } from '../../../server/platform/jobs/bull-queue';
import { REDIS_JOBS } from '../../../server/platform/jobs/job-queue';
import { createSqlJobQueue } from '../../../server/platform/jobs/sql-queue';
import { loadConfig, type Config } from '../../../server/config';
import { createDb } from '../../../server/db/create-db';
import type { Database } from '../../../server/db/database';
import { migrateToLatest } from '../../../server/db/migrate';
import { setPasswordHashCost } from '../../../server/services/identity/passwords';
import { seedDemoData } from '../../../server/seed';
import { eventually } from './chat-fixtures';
import { DEMO_PASSWORD, PUBLIC_URL, withPg } from './test-app';

const silentLog = { child: () => silentLog, info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;

/** Short enough that a test waits for a lapsed lease or a retry in a fraction of a second. */
export const FAST_JOBS = { leaseMs: 600, pollMs: 25, retryBaseMs: 40, retryMaxMs: 400 } as const;

/**
 * One migrated, seeded database (a SQLite file in a temp dir, or a fresh PostgreSQL schema) and as many app instances
 * on it as a test asks for, each with its own job queue (its own lease owner), as servers behind a proxy would be.
 * In-process instances share one database handle: two better-sqlite3 connections on one thread would block each
 * other; a second process (job-child.ts) opens its own.
 */
export interface SharedDatabase {
  config: Config;
  db: Kysely<Database>;
  /** What a child process needs to open the same database (job-child.ts). */
  childEnv: Record<string, string>;
  /**
   * An app on the database, ready. `env`: settings of its own on top of the database's; `ownConnection`: a database
   * handle of its own (a server of its own would have one), for tests whose handlers use no transactions.
   */
  instance(
    options?: Partial<Omit<BuildAppOptions, 'config' | 'db'>> & { env?: Record<string, string>; ownConnection?: boolean },
  ): Promise<FastifyInstance>;
  close(): Promise<void>;
}

export async function sharedDatabase(env: Record<string, string> = {}): Promise<SharedDatabase> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tanya-jobs-'));
  const databaseUrl = process.env.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  if (process.env.TEST_DB === 'postgres' && !databaseUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const baseEnv: Record<string, string> = {
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-dist'),
    PUBLIC_URL,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    LOG_LEVEL: 'silent',
    PASSWORD_HASH_COST: 'low',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  };
  const config = loadConfig(baseEnv);
  setPasswordHashCost(config.passwordHashCost);
  const schema = databaseUrl ? `test_w${process.env.VITEST_POOL_ID ?? '0'}_${randomBytes(6).toString('hex')}` : undefined;
  if (databaseUrl && schema) await withPg(databaseUrl, (c) => c.query(`create schema ${schema}`));
  const pgOptions = schema ? `-c search_path=${schema}` : undefined;
  const db = createDb(config, pgOptions ? { pgOptions } : {});
  await migrateToLatest(db);
  await seedDemoData(db, { password: DEMO_PASSWORD, publicUrl: config.publicUrl });

  const apps = new Set<FastifyInstance>();
  const handles: Kysely<Database>[] = [];
  return {
    config,
    db,
    childEnv: { ...baseEnv, ...(pgOptions ? { JOB_CHILD_PG_OPTIONS: pgOptions } : {}) },
    async instance(options = {}) {
      const { env: extra, ownConnection, ...rest } = options;
      let handle = db;
      if (ownConnection) handles.push((handle = createDb(config, pgOptions ? { pgOptions } : {})));
      const app = await buildApp({
        config: extra ? loadConfig({ ...baseEnv, ...extra }) : config,
        db: handle,
        logger: false,
        ...rest,
      });
      apps.add(app);
      app.addHook('onClose', async () => void apps.delete(app));
      await app.ready();
      return app;
    },
    async close() {
      for (const app of [...apps]) await app.close();
      for (const handle of handles) await handle.destroy();
      await db.destroy();
      if (databaseUrl && schema) await withPg(databaseUrl, (c) => c.query(`drop schema ${schema} cascade`));
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Enqueues on REDIS_URL's BullMQ under `redisPrefix` (and the database's jobs table) as a process running no jobs would. */
export function redisEnqueuer(shared: SharedDatabase, redisUrl: string, redisPrefix: string, maxAttempts = 3) {
  const closing = new AbortController().signal;
  return createBullJobQueue(
    {
      redisUrl,
      prefix: `${redisPrefix}jobs`,
      names: REDIS_JOBS,
      sql: createSqlJobQueue({ db: shared.db, log: silentLog, closing }),
      log: silentLog,
      closing,
    },
    { leaseMs: FAST_JOBS.leaseMs, retryBaseMs: FAST_JOBS.retryBaseMs, retryMaxMs: FAST_JOBS.retryMaxMs, maxAttempts, concurrency: 1 },
  );
}

/** Polls until `check` gives something truthy, with room for a lease to lapse (15 s by default). */
export const until = <T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> => eventually(check, timeoutMs);
