import { sql, type Kysely } from 'kysely';
import type { Database } from '../database';

/** Resolves when the database answers a trivial query; rejects with the driver's error otherwise. */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
