import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { LoginResponse, Tokens } from '../../../contract/auth';
import type { AppContext } from '../../context';
import type { Database } from '../../db/database';
import { insertRefreshToken, revokeUserRefreshTokens } from '../../db/repositories/refresh-tokens';
import { raiseSessionVersion, type UserRecord } from '../../db/repositories/users';
import { sessionBlock } from './access';
import { ForbiddenError } from '../errors';
import { newOpaqueToken, type OpaqueToken } from './tokens';
import { toOwnUserView } from './user-view';

const DAY_MS = 86_400_000;

/**
 * A fresh access token and a refresh token in `familyId` (a refresh rotates within its family; reuse of an old
 * token revokes the family). `refresh` is the refresh token to store (a rotation passes the derived successor);
 * random otherwise. `db` may be a transaction.
 */
export async function issueTokens(
  ctx: AppContext,
  db: Kysely<Database>,
  user: UserRecord,
  familyId: string,
  refresh: OpaqueToken = newOpaqueToken(),
): Promise<Tokens> {
  await insertRefreshToken(db, { user_id: user.id, family_id: familyId, token_hash: refresh.hash }, ctx.config.refreshTokenTtlDays * DAY_MS);
  return { access_token: await signAccessToken(ctx, user, familyId), refresh_token: refresh.token };
}

/**
 * An access token of the sign-in whose refresh tokens form `familyId`. It carries the person's session version and
 * that family, so raising the version (new password, deactivation, role change) or ending the family (logout, a
 * stolen refresh token) refuses it at once: every request compares them (services/access.ts).
 */
export function signAccessToken(ctx: AppContext, user: UserRecord, familyId: string): Promise<string> {
  return ctx.tokens.signAccessToken({
    sub: user.id,
    role: user.role,
    client_id: user.client_id,
    sv: user.session_version,
    sid: familyId,
  });
}

/**
 * Signs in a person whose identity is proven: checks they may hold a session now (active, verified, organisation
 * subscribed: ForbiddenError otherwise), then a new refresh family, its tokens and the user view. Every sign-in
 * kind ends here (password now; SSO and LDAP later), so a session is the same whichever way it began.
 */
export async function issueSession(ctx: AppContext, user: UserRecord): Promise<LoginResponse> {
  const block = await sessionBlock(ctx.db, user);
  if (block) throw new ForbiddenError(block.detail, block.code);
  const tokens = await issueTokens(ctx, ctx.db, user, randomUUID());
  return { ...tokens, user: await toOwnUserView(ctx.db, user) };
}

/**
 * Ends every sign-in of the person (new password, deactivation): their refresh tokens are revoked and every access
 * token they hold is refused from their next request on, on every instance (the version is read with the person on
 * each request). `db` should be the caller's transaction.
 */
export async function endAllSessions(db: Kysely<Database>, userId: string): Promise<void> {
  await revokeUserRefreshTokens(db, userId);
  await raiseSessionVersion(db, userId);
}

/**
 * Refuses the person's current access tokens but keeps them signed in (a role change): their client refreshes on the
 * 401 and gets a token with what they are now. `db` should be the caller's transaction.
 */
export async function renewAccessTokens(db: Kysely<Database>, userId: string): Promise<void> {
  await raiseSessionVersion(db, userId);
}
