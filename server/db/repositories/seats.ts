import type { Kysely } from 'kysely';
import type { Database } from '../database';
import { lockRow } from '../row-lock';

/** Holds the organisation's row until the transaction ends: counting its seats (or storage) and adding one is serial. */
export function lockOrganisation(db: Kysely<Database>, clientId: string): Promise<void> {
  return lockRow(db, 'clients', clientId);
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
