import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, RefreshTokensTable } from '../database';
import { isoNow, lifetimeFromNow } from '../timestamps';

export type RefreshTokenRecord = Selectable<RefreshTokensTable>;

/** A refresh token that lasts exactly `lifetimeMs`. */
export async function insertRefreshToken(
  db: Kysely<Database>,
  token: { user_id: string; family_id: string; token_hash: string },
  lifetimeMs: number,
): Promise<RefreshTokenRecord> {
  const row: RefreshTokenRecord = { id: randomUUID(), ...token, ...lifetimeFromNow(lifetimeMs), used_at: null, revoked_at: null };
  await db.insertInto('refresh_tokens').values(row).execute();
  return row;
}

export async function findRefreshTokenByHash(db: Kysely<Database>, tokenHash: string): Promise<RefreshTokenRecord | undefined> {
  return db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/**
 * Marks a token used only if it is still fresh. False means another request (maybe on another instance)
 * used or revoked it first: the caller treats that as reuse.
 */
export async function markRefreshTokenUsed(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ used_at: isoNow() })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function revokeRefreshTokenFamily(db: Kysely<Database>, familyId: string): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: isoNow() })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeUserRefreshTokens(db: Kysely<Database>, userId: string): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: isoNow() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}
