import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../../server/app';
import { loadConfig, type Config } from '../../../server/config';
import { createDb } from '../../../server/db/create-db';
import type { Database } from '../../../server/db/database';
import { migrateToLatest } from '../../../server/db/migrate';
import type { AppLogger } from '../../../server/http/logger';
import type { Mailer } from '../../../server/platform/mailer';
import { setPasswordHashCost } from '../../../server/services/identity/passwords';
import { seedDemoData } from '../../../server/seed';

export const DEMO_PASSWORD = 'demo-password-123';
export const PUBLIC_URL = 'http://tanya.test';
export const dbKind: 'postgres' | 'sqlite' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export interface TestAppOverrides {
  /** Environment variables on top of the test defaults, parsed by loadConfig like in production. */
  env?: Record<string, string>;
  /** Applied after parsing (e.g. small rate-limit numbers). */
  config?: Partial<Config>;
  logger?: AppLogger;
  mailer?: Mailer;
  onRoute?: (route: RouteOptions) => void;
}

export interface TestApp {
  app: FastifyInstance;
  db: Kysely<Database>;
  config: Config;
  close(): Promise<void>;
}

/** Runs `run` on a short-lived connection of its own (schema set-up and clean-up beside the app's pool). */
export async function withPg<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A migrated, seeded app on a fresh database: SQLite in a temp dir, or a fresh schema when TEST_DB=postgres. */
export async function createTestApp(overrides: TestAppOverrides = {}): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tanya-test-'));
  const databaseUrl = dbKind === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  if (dbKind === 'postgres' && !databaseUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');

  const config: Config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      STATIC_DIR: path.join(dataDir, 'no-dist'),
      PUBLIC_URL,
      JWT_SECRET: randomBytes(48).toString('base64url'),
      // Configured like production, so OAuth configurations can be stored; `OAUTH_SECRET_KEY: ''` leaves it unset.
      OAUTH_SECRET_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'silent',
      // Suites send many questions (uploads, feedback, prompts) as one person; each limit has its own test.
      MESSAGE_RATE_LIMIT_PER_USER: '10000',
      UPLOAD_RATE_LIMIT_PER_USER: '10000',
      FEEDBACK_RATE_LIMIT_PER_USER: '10000',
      PROMPT_RATE_LIMIT_PER_USER: '10000',
      // Hundreds of sign-ins at argon2's default cost (0.2-0.5 s each here) took minutes; the default has its own test.
      PASSWORD_HASH_COST: 'low',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...overrides.env,
    }),
    ...overrides.config,
  };

  setPasswordHashCost(config.passwordHashCost);

  let schema: string | undefined;
  if (databaseUrl) {
    // One schema per test app, named after the vitest worker (pool id) that made it: workers run in parallel on the
    // same database and never share rows; a schema left behind by a crashed run says which worker it was.
    schema = `test_w${process.env.VITEST_POOL_ID ?? '0'}_${randomBytes(6).toString('hex')}`;
    await withPg(databaseUrl, (c) => c.query(`create schema ${schema}`));
  }
  const db = createDb(config, schema ? { pgOptions: `-c search_path=${schema}` } : {});
  const cleanUp = async () => {
    await db.destroy();
    if (databaseUrl && schema) await withPg(databaseUrl, (c) => c.query(`drop schema ${schema} cascade`));
    await fs.rm(dataDir, { recursive: true, force: true });
  };

  let app: FastifyInstance;
  try {
    await migrateToLatest(db);
    await seedDemoData(db, { password: DEMO_PASSWORD, publicUrl: config.publicUrl });
    app = await buildApp({ config, db, logger: overrides.logger ?? false, mailer: overrides.mailer, onRoute: overrides.onRoute });
    await app.ready();
  } catch (err) {
    await cleanUp();
    throw err;
  }

  return {
    app,
    db,
    config,
    async close() {
      await app.close();
      await cleanUp();
    },
  };
}
