import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import type { Database } from './database';

export type Db = Kysely<Database>;

export interface CreateDbOptions {
  /** libpq `options`, e.g. `-c search_path=test_abc` so each test file gets its own schema. */
  pgOptions?: string;
}

export function createDb(config: Pick<Config, 'databaseUrl' | 'sqlitePath'>, opts: CreateDbOptions = {}): Db {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, options: opts.pgOptions, max: 10 });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  fs.mkdirSync(path.dirname(config.sqlitePath), { recursive: true });
  const sqlite = new SqliteDatabase(config.sqlitePath);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  // Another process (a second instance, a backup) may hold the write lock briefly.
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}
