import type { Kysely } from 'kysely';
import type { Database } from './database';

/**
 * Holds one row until the transaction ends, so two transactions that measure something it owns and then add to it
 * run one after the other (PostgreSQL row lock; SQLite runs one write transaction at a time anyway). A no-op update
 * rather than SELECT ... FOR UPDATE, which SQLite does not know.
 */
export async function lockRow(db: Kysely<Database>, table: 'clients' | 'users', id: string): Promise<void> {
  await db
    .updateTable(table)
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', id)
    .execute();
}
