import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { LoginResponse, Tokens } from '../../contract/auth';
import type { AppContext } from '../context';
import type { Database } from '../db/database';
import { insertRefreshToken } from '../db/repositories/refresh-tokens';
import type { UserRecord } from '../db/repositories/users';
import { isoFromNow } from '../db/timestamps';
import { sessionBlock } from './access';
import { ForbiddenError } from './errors';
import { newOpaqueToken } from './tokens';
import { toUserView } from './user-view';

const DAY_MS = 86_400_000;

/**
 * A fresh access token and a refresh token in `familyId` (a refresh rotates within its family; reuse of an old
 * token revokes the family). `db` may be a transaction.
 */
export async function issueTokens(ctx: AppContext, db: Kysely<Database>, user: UserRecord, familyId: string): Promise<Tokens> {
  const refresh = newOpaqueToken();
  await insertRefreshToken(db, {
    user_id: user.id,
    family_id: familyId,
    token_hash: refresh.hash,
    expires_at: isoFromNow(ctx.config.refreshTokenTtlDays * DAY_MS),
  });
  const access_token = await ctx.tokens.signAccessToken({ sub: user.id, role: user.role, client_id: user.client_id });
  return { access_token, refresh_token: refresh.token };
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
