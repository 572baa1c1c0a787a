import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { LoginResponse, Tokens } from '../../contract/auth';
import type { AppContext } from '../context';
import type { Database } from '../db/database';
import { insertRefreshToken } from '../db/repositories/refresh-tokens';
import type { UserRecord } from '../db/repositories/users';
import { sessionBlock } from './access';
import { ForbiddenError } from './errors';
import { newOpaqueToken, type OpaqueToken } from './tokens';
import { toUserView } from './user-view';

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
  return { access_token: await signAccessToken(ctx, user), refresh_token: refresh.token };
}

export function signAccessToken(ctx: AppContext, user: UserRecord): Promise<string> {
  return ctx.tokens.signAccessToken({ sub: user.id, role: user.role, client_id: user.client_id });
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
  return { ...tokens, user: await toUserView(ctx.db, user) };
}
