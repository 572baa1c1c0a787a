import pg from 'pg';

/**
 * With TEST_DB=postgres the server files run in parallel workers (vitest.config.ts), each in a PostgreSQL database of
 * its own: `<TEST_DATABASE_URL's database>_w<VITEST_POOL_ID>`, created by the worker's first file and dropped after
 * the run (global-database.ts). In one shared database, one worker's catalog queries (Kysely's migrator introspects
 * every schema it can see) failed with "schema ... does not exist" when another worker dropped its schema meanwhile.
 * Every test app still gets a fresh schema inside the worker's database (test-app.ts).
 */
export const WORKER_DATABASE_SUFFIX = '_w';

export function workerDatabaseName(baseUrl: string, poolId: string): string {
  return `${new URL(baseUrl).pathname.slice(1)}${WORKER_DATABASE_SUFFIX}${poolId}`;
}

export async function useWorkerDatabase(): Promise<void> {
  const base = process.env.TEST_DATABASE_URL_BASE ?? process.env.TEST_DATABASE_URL;
  if (process.env.TEST_DB !== 'postgres' || !base || process.env.TEST_DATABASE_URL_BASE) return;
  const name = workerDatabaseName(base, process.env.VITEST_POOL_ID ?? '1');
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(`create database ${client.escapeIdentifier(name)}`);
  } catch (err) {
    // Left by a run that crashed before its teardown: its schemas are never read again.
    if ((err as { code?: string }).code !== '42P04') throw err;
  } finally {
    await client.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  process.env.TEST_DATABASE_URL_BASE = base;
  process.env.TEST_DATABASE_URL = url.toString();
}
