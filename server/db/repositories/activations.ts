import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { ActivationsTable, Database } from '../database';
import { lifetimeFromNow } from '../timestamps';

export type ActivationRecord = Selectable<ActivationsTable>;

/** A code that lasts exactly `lifetimeMs`. */
export async function insertActivation(
  db: Kysely<Database>,
  activation: { user_id: string; code_hash: string },
  lifetimeMs: number,
): Promise<ActivationRecord> {
  const row: ActivationRecord = { id: randomUUID(), ...activation, used_at: null, ...lifetimeFromNow(lifetimeMs) };
  await db.insertInto('activations').values(row).execute();
  return row;
}

export async function findActivationByHash(db: Kysely<Database>, codeHash: string): Promise<ActivationRecord | undefined> {
  return db.selectFrom('activations').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

/**
 * Single use: marks the code used only while it is unused and unexpired at `now`; false when a concurrent request
 * won (on PostgreSQL the second UPDATE waits for the first to commit, then finds used_at set).
 */
export async function markActivationUsed(db: Kysely<Database>, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('activations')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** After an activation: every other link of the person counts as used (they answer "sign in instead"). */
export async function markUserActivationsUsed(db: Kysely<Database>, userId: string, now: string): Promise<void> {
  await db.updateTable('activations').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

/**
 * Ends the person's outstanding links because a new one replaces them: they expire now, so an old link opened
 * later says "expired" and offers a new link rather than pretending it was used.
 */
export async function expireUserActivations(db: Kysely<Database>, userId: string, now: string): Promise<void> {
  await db
    .updateTable('activations')
    .set({ expires_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
}
