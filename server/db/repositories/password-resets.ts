import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, PasswordResetsTable } from '../database';
import { isoNow, lifetimeFromNow } from '../timestamps';

export type PasswordResetRecord = Selectable<PasswordResetsTable>;

/** A reset link that lasts exactly `lifetimeMs`. */
export async function insertPasswordReset(
  db: Kysely<Database>,
  reset: { user_id: string; token_hash: string },
  lifetimeMs: number,
): Promise<PasswordResetRecord> {
  const row: PasswordResetRecord = { id: randomUUID(), ...reset, used_at: null, ...lifetimeFromNow(lifetimeMs) };
  await db.insertInto('password_resets').values(row).execute();
  return row;
}

export async function findPasswordResetByHash(db: Kysely<Database>, tokenHash: string): Promise<PasswordResetRecord | undefined> {
  return db.selectFrom('password_resets').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Single use: false when the token was already used (e.g. a concurrent request won). */
export async function markPasswordResetUsed(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db
    .updateTable('password_resets')
    .set({ used_at: isoNow() })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends every outstanding reset link of a person (their password was just set). */
export async function markUserPasswordResetsUsed(db: Kysely<Database>, userId: string): Promise<void> {
  await db
    .updateTable('password_resets')
    .set({ used_at: isoNow() })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}
