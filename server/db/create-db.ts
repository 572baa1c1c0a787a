import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type Driver } from 'kysely';
import pg from 'pg';
import * as sqliteVec from 'sqlite-vec';
import type { Config } from '../config';
import { ensurePrivateDir, ensurePrivateFile } from '../lib/private-files';
import type { Database } from './database';
import { startCheckpointer, type Checkpointer } from './sqlite-checkpointer';

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
  ensurePrivateDir(path.dirname(config.sqlitePath));
  // SQLite gives its -wal and -shm files the database file's mode, so creating that one private covers all three.
  ensurePrivateFile(config.sqlitePath);
  const sqlite = new SqliteDatabase(config.sqlitePath);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  // Another process (a second instance, a backup) may hold the write lock briefly.
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // Checkpoints happen in a worker thread, not inside the app's commits (see sqlite-checkpointer.ts).
  sqlite.pragma('wal_autocheckpoint = 0');
  // sqlite-vec's functions (vec_distance_cosine) for the documents' vectors: retrieval ranks chunks with them.
  sqliteVec.load(sqlite);
  const checkpointer = startCheckpointer(config.sqlitePath);
  return new Kysely<Database>({ dialect: new SqliteWithCheckpointer({ database: withStatementCache(sqlite) }, checkpointer) });
}

/**
 * db.destroy() returns once the checkpointer's connection is closed too: its last checkpoint and the removal of the
 * -wal and -shm files are then done, not still running while the caller removes or copies the data directory.
 * (Kysely's SQLite driver does not wait for the database's close(), so the wait is added to the driver.)
 */
class SqliteWithCheckpointer extends SqliteDialect {
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly checkpointer: Checkpointer,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const destroy = driver.destroy.bind(driver);
    driver.destroy = async () => {
      await destroy();
      await this.checkpointer.stop();
    };
    return driver;
  }
}

/** Distinct SQL texts kept prepared; the app issues a few hundred, the rest (IN lists of many sizes) rotate out. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query afresh, and on a busy server preparing costs more than running
 * (2.5 s of a 16 s load run). A prepared better-sqlite3 statement can be run again and again, so each SQL text
 * is prepared once and reused, least recently used dropped first. Safe because nothing here iterates a
 * statement lazily (no Kysely .stream()), which would keep it busy while another query reuses it.
 */
function withStatementCache(sqlite: SqliteDatabase.Database) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(query: string) {
      // Kysely opens every transaction with a deferred `begin`: a transaction that reads and then writes while
      // another connection (a second instance, a maintenance script, a test's seed) has written since fails at
      // once with SQLITE_BUSY, which busy_timeout does not wait out (seen as 'database is locked' on creating a
      // share in a full e2e run). Taking the write lock at `begin` makes such a writer wait its turn instead. In
      // one process it costs nothing: the app's queries already run one at a time on its one connection.
      const text = query === 'begin' ? 'begin immediate' : query;
      let statement = cache.get(text);
      if (statement) cache.delete(text);
      else statement = sqlite.prepare(text);
      cache.set(text, statement);
      if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      return statement;
    },
  };
}
