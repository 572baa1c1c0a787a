import pg from 'pg';
import { WORKER_DATABASE_SUFFIX } from './worker-database';

/** Vitest globalSetup of the server project: drops the workers' PostgreSQL databases (worker-database.ts) after the run. */
export default function setup() {
  const base = process.env.TEST_DATABASE_URL;
  if (process.env.TEST_DB !== 'postgres' || !base) return undefined;
  return async () => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      const prefix = `${new URL(base).pathname.slice(1)}${WORKER_DATABASE_SUFFIX}`;
      const { rows } = await client.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [prefix]);
      for (const { datname } of rows) {
        if (/^\d+$/.test(datname.slice(prefix.length))) await client.query(`drop database if exists ${client.escapeIdentifier(datname)} with (force)`);
      }
    } finally {
      await client.end();
    }
  };
}
