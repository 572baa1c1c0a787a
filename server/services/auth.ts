import type { FastifyBaseLogger } from 'fastify';
import type { LoginRequest, LoginResponse, Tokens } from '../../contract/auth';
import type { AppContext } from '../context';
import {
  findPasswordResetByHash,
  insertPasswordReset,
  markPasswordResetUsed,
} from '../db/repositories/password-resets';
import {
  findRefreshTokenByHash,
  markRefreshTokenUsed,
  revokeRefreshTokenFamily,
  revokeUserRefreshTokens,
} from '../db/repositories/refresh-tokens';
import {
  findUserByEmail,
  findUserById,
  normaliseEmail,
  updateUserPassword,
} from '../db/repositories/users';
import { isoFromNow, isoNow } from '../db/timestamps';
import { inTransaction } from '../db/transaction';
import { sessionBlock } from './access';
import { InvalidError, UnauthenticatedError } from './errors';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords';
import { enforceRateLimit } from './rate-limit';
import { passwordResetMail } from './reset-mail';
import { issueSession, issueTokens } from './session';
import { newOpaqueToken, sha256Hex } from './tokens';

const RESET_TOKEN_TTL_MS = 3_600_000;

export const WRONG_CREDENTIALS = 'Incorrect email or password';
export const SESSION_EXPIRED = 'Session expired';
export const RESET_REQUESTED = 'If an account exists for that email, password reset instructions have been sent.';
export const LOGGED_OUT = 'Logged out';
export const PASSWORD_UPDATED = 'Your password has been successfully updated';
export const INVALID_RESET_TOKEN = 'Invalid or expired reset token';

export async function login(ctx: AppContext, input: LoginRequest, ip: string): Promise<LoginResponse> {
  const email = normaliseEmail(input.email);
  await enforceRateLimit(ctx.rateLimits, `login:ip:${ip}`, ctx.config.rateLimits.loginPerIp);
  await enforceRateLimit(ctx.rateLimits, `login:email:${email}`, ctx.config.rateLimits.loginPerEmail);

  const user = await findUserByEmail(ctx.db, email);
  // Unknown emails and password-less accounts cost one verification too: same answer, comparable time.
  const passwordOk = user?.password_hash
    ? await verifyPassword(user.password_hash, input.password)
    : await verifyAgainstDummy(input.password);
  if (!user || !passwordOk) throw new UnauthenticatedError(WRONG_CREDENTIALS);
  return issueSession(ctx, user);
}

/** Rotates a refresh token. Any second use of a token revokes its whole family (stolen-token detection). */
export async function refresh(ctx: AppContext, presented: string | undefined): Promise<Tokens> {
  if (!presented) throw new UnauthenticatedError();
  const row = await findRefreshTokenByHash(ctx.db, sha256Hex(presented));
  if (!row) throw new UnauthenticatedError();
  if (row.used_at || row.revoked_at) {
    await revokeRefreshTokenFamily(ctx.db, row.family_id);
    throw new UnauthenticatedError(SESSION_EXPIRED);
  }
  if (row.expires_at <= isoNow()) throw new UnauthenticatedError(SESSION_EXPIRED);

  const user = await findUserById(ctx.db, row.user_id);
  const block = user ? await sessionBlock(ctx.db, user) : { detail: SESSION_EXPIRED };
  if (!user || block) {
    await revokeRefreshTokenFamily(ctx.db, row.family_id);
    throw new UnauthenticatedError(block?.detail ?? SESSION_EXPIRED, block?.code);
  }

  const rotated = await inTransaction(ctx.db, async (trx) => {
    if (!(await markRefreshTokenUsed(trx, row.id))) return null;
    return issueTokens(ctx, trx, user, row.family_id);
  });
  if (!rotated) {
    // Lost a race against another use of the same token: that is reuse too.
    await revokeRefreshTokenFamily(ctx.db, row.family_id);
    throw new UnauthenticatedError(SESSION_EXPIRED);
  }
  return rotated;
}

/** Idempotent: an unknown or already revoked token is fine. */
export async function logout(ctx: AppContext, presented: string | undefined): Promise<void> {
  if (!presented) return;
  const row = await findRefreshTokenByHash(ctx.db, sha256Hex(presented));
  if (row) await revokeRefreshTokenFamily(ctx.db, row.family_id);
}

/** Same answer for every email, known or not; the mail goes out in the background. */
export async function requestPasswordReset(
  ctx: AppContext,
  rawEmail: string,
  ip: string,
  log: FastifyBaseLogger,
): Promise<string> {
  const email = normaliseEmail(rawEmail);
  await enforceRateLimit(ctx.rateLimits, `reset:ip:${ip}`, ctx.config.rateLimits.resetPerIp);
  await enforceRateLimit(ctx.rateLimits, `reset:email:${email}`, ctx.config.rateLimits.resetPerEmail);

  const user = await findUserByEmail(ctx.db, email);
  if (!user || user.status !== 'active') return RESET_REQUESTED;

  const reset = newOpaqueToken();
  await insertPasswordReset(ctx.db, {
    user_id: user.id,
    token_hash: reset.hash,
    expires_at: isoFromNow(RESET_TOKEN_TTL_MS),
  });
  const link = `${ctx.config.publicUrl}/reset-password/${reset.token}`;
  ctx.background.run('password reset mail', async () => {
    await ctx.mailer.send(passwordResetMail(user, link));
    // Without SMTP the link must be reachable somehow: the log is the operator's channel.
    if (ctx.mailer.kind === 'outbox') log.info({ to: user.email, link }, 'password reset mail written to the outbox');
  });
  return RESET_REQUESTED;
}

export async function resetPassword(ctx: AppContext, token: string, newPassword: string): Promise<void> {
  const row = await findPasswordResetByHash(ctx.db, sha256Hex(token));
  if (!row || row.used_at || row.expires_at <= isoNow()) throw new InvalidError(INVALID_RESET_TOKEN);
  const user = await findUserById(ctx.db, row.user_id);
  if (!user || user.status !== 'active') throw new InvalidError(INVALID_RESET_TOKEN);

  const passwordHash = await hashPassword(newPassword);
  await inTransaction(ctx.db, async (trx) => {
    if (!(await markPasswordResetUsed(trx, row.id))) throw new InvalidError(INVALID_RESET_TOKEN);
    await updateUserPassword(trx, user.id, passwordHash);
    // A reset usually means "someone else may know my password": end every session.
    await revokeUserRefreshTokens(trx, user.id);
  });
}
