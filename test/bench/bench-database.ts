import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface BenchDatabase {
  /** Environment for a server process: DATABASE_URL of a fresh schema, or '' (SQLite in its DATA_DIR). */
  env: Record<string, string>;
  drop(): Promise<void>;
}

async function run(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A database for server processes of a bench or test: with a postgres:// `url`, a schema of its own in that
 * database (dropped by drop()), so runs never see each other's rows; without one, SQLite in the data directory.
 */
export async function freshDatabase(url: string | undefined): Promise<BenchDatabase> {
  if (!url) return { env: { DATABASE_URL: '' }, drop: async () => undefined };
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  await run(url, `create schema ${schema}`);
  const withSchema = new URL(url);
  withSchema.searchParams.set('options', `-c search_path=${schema}`);
  return { env: { DATABASE_URL: withSchema.toString() }, drop: () => run(url, `drop schema ${schema} cascade`) };
}
