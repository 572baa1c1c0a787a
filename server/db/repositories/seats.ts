import type { Kysely } from 'kysely';
import type { Database } from '../database';

/**
 * Holds the organisation's row until the transaction ends, so two transactions that count its active users and
 * then add one run one after the other (PostgreSQL row lock; SQLite runs one write transaction at a time anyway).
 * A no-op update rather than SELECT ... FOR UPDATE, which SQLite does not know.
 */
export async function lockOrganisation(db: Kysely<Database>, clientId: string): Promise<void> {
  await db
    .updateTable('clients')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', clientId)
    .execute();
}

/** How many people of the organisation are active (verified or not: an unverified person holds a seat too). */
export async function countActiveUsers(db: Kysely<Database>, clientId: string): Promise<number> {
  const { n } = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('client_id', '=', clientId)
    .where('status', '=', 'active')
    .executeTakeFirstOrThrow();
  return Number(n);
}
