import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database';

/**
 * Runs `work` in one database transaction: committed when it resolves, rolled back when it throws (the error is
 * rethrown as is, so a domain error raised inside reaches the caller). Services use this instead of Kysely's API.
 */
export function inTransaction<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(work);
}
