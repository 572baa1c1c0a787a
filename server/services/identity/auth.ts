import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { LoginRequest, LoginResponse, Tokens } from '../../../contract/auth';
import { INVALID_RESET_LINK } from '../../../contract/link-check';
import { LDAP_RESET_REFUSED } from '../../../contract/ldap-settings-constants';
import type { AppContext } from '../../context';
import type { Database } from '../../db/database';
import {
  findPasswordResetByHash,
  markPasswordResetUsed,
  markUserPasswordResetsUsed,
} from '../../db/repositories/password-resets';
import {
  findRefreshTokenByHash,
  markRefreshTokenUsed,
  revokeRefreshTokenFamily,
  type RefreshTokenRecord,
} from '../../db/repositories/refresh-tokens';
import {
  findUserByEmail,
  findUserById,
  normaliseEmail,
  updateUserPassword,
  type UserRecord,
} from '../../db/repositories/users';
import { isoNow } from '../../db/timestamps';
import { inTransaction } from '../../db/transaction';
import { sessionBlock } from './access';
import { InvalidError, UnauthenticatedError } from '../errors';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords';
import { enforceRateLimits, withinRateLimits, type RateLimitCheck } from '../../platform/rate-limit';
import { endAllSessions, issueSession, issueTokens, signAccessToken } from './session';
import { sha256Hex } from './tokens';
import { directoryForSignIn, signInWithDirectory } from './ldap-sign-in';

export const WRONG_CREDENTIALS = 'Incorrect email or password';
export const SESSION_EXPIRED = 'Session expired';
export const RESET_REQUESTED = 'If an account exists for that email, password reset instructions have been sent.';
export const LOGGED_OUT = 'Logged out';
export const PASSWORD_UPDATED = 'Your password has been successfully updated';
export const INVALID_RESET_TOKEN = INVALID_RESET_LINK;

export const TOO_MANY_ACCOUNT_FAILURES = (wait: string) =>
  `Too many failed sign-ins for this account. Please try again in ${wait}, or reset your password.`;

/**
 * Failed sign-ins count per address and per (address, e-mail), so someone else's failures never refuse a right
 * password from another address. The per-e-mail count is only a high last resort against many addresses.
 */
function loginChecks(ctx: AppContext, ip: string, email: string): RateLimitCheck[] {
  const limits = ctx.config.rateLimits;
  return [
    { key: `login:ip:${ip}`, rule: limits.loginPerIp },
    { key: `login:ip-email:${ip}:${email}`, rule: limits.loginPerIpEmail },
    { key: `login:email:${email}`, rule: limits.loginPerEmail, refusal: TOO_MANY_ACCOUNT_FAILURES },
  ];
}

/** Where a sign-in came from: the address (directory sign-in finds a new person's organisation by it) and the log. */
export interface SignInSource {
  ip: string;
  origin: string | undefined;
  log: FastifyBaseLogger;
}

export async function login(ctx: AppContext, input: LoginRequest, from: SignInSource): Promise<LoginResponse> {
  const email = normaliseEmail(input.email);
  const checks = loginChecks(ctx, from.ip, email);
  await enforceRateLimits(ctx.rateLimits, checks);

  const known = await findUserByEmail(ctx.db, email);
  const directory = await directoryForSignIn(ctx, known, from.origin);
  let user: UserRecord | undefined;
  if (directory) {
    // The organisation's directory alone judges its people's passwords (a Tanya password they may once have had
    // no longer counts); it may create the person on their first sign-in.
    user = await signInWithDirectory(ctx, directory, known, email, input.password, from.log);
  } else {
    // Unknown emails and password-less accounts cost one verification too: same answer, comparable time.
    const passwordOk = known?.password_hash
      ? await verifyPassword(known.password_hash, input.password)
      : await verifyAgainstDummy(input.password);
    if (passwordOk) user = known;
  }
  if (!user) throw new UnauthenticatedError(WRONG_CREDENTIALS);
  // Counted before the check (so parallel guesses cannot outrun it); a right password is no failure.
  for (const check of checks) await ctx.rateLimits.forgive(check.key);
  return issueSession(ctx, user);
}

/**
 * Rotates a refresh token. The successor is derived from the presented token, so presenting it again within the
 * grace period (two tabs refreshing at once, a retry after a lost answer) gets the same successor while that one
 * is still unused. Any other second use revokes the whole family (stolen-token detection).
 */
export async function refresh(ctx: AppContext, presented: string | undefined): Promise<Tokens> {
  if (!presented) throw new UnauthenticatedError();
  const hash = sha256Hex(presented);
  let row = await findRefreshTokenByHash(ctx.db, hash);
  if (!row) throw new UnauthenticatedError();
  const familyId = row.family_id;
  const endFamily = async (detail = SESSION_EXPIRED, code?: string): Promise<never> => {
    await revokeRefreshTokenFamily(ctx.db, familyId);
    throw new UnauthenticatedError(detail, code);
  };
  const graceMs = ctx.config.refreshReuseGraceSeconds * 1000;
  const usedJustNow = (used: RefreshTokenRecord) => used.used_at !== null && Date.parse(used.used_at) + graceMs > Date.now();

  if (row.revoked_at || (row.used_at && !usedJustNow(row))) return endFamily();
  if (row.expires_at <= isoNow()) throw new UnauthenticatedError(SESSION_EXPIRED);

  const user = await findUserById(ctx.db, row.user_id);
  const block = user ? await sessionBlock(ctx.db, user) : { detail: SESSION_EXPIRED };
  if (!user || block) return endFamily(block?.detail, block?.code);

  const successor = ctx.tokens.successorRefreshToken(presented);
  if (!row.used_at) {
    const fresh = row;
    const rotated = await inTransaction(ctx.db, async (trx) => {
      if (!(await markRefreshTokenUsed(trx, fresh.id))) return null;
      return issueTokens(ctx, trx, user, familyId, successor);
    });
    if (rotated) return rotated;
    // Another request rotated it first (committed by now): answered like a repeat of that rotation.
    row = await findRefreshTokenByHash(ctx.db, hash);
  }
  if (row && !row.revoked_at && usedJustNow(row)) {
    const next = await findRefreshTokenByHash(ctx.db, successor.hash);
    // Only while the successor is still the family's live token: once it was used on, a repeat is stale.
    if (next && next.family_id === familyId && !next.used_at && !next.revoked_at) {
      return { access_token: await signAccessToken(ctx, user, familyId), refresh_token: successor.token };
    }
  }
  return endFamily();
}

/**
 * Ends the sign-in of this refresh token (its family) and nobody else's: the person's other devices stay signed in.
 * The access tokens of that sign-in are refused from now on too (they name the family). Idempotent: an unknown or
 * already revoked token is fine.
 */
export async function logout(ctx: AppContext, presented: string | undefined): Promise<void> {
  if (!presented) return;
  const row = await findRefreshTokenByHash(ctx.db, sha256Hex(presented));
  if (row) await revokeRefreshTokenFamily(ctx.db, row.family_id);
}

/**
 * Same answer for every email, known or not, within the rate limits or over them (over them nothing is sent),
 * so the answer tells nothing about an account or its limits. The mail goes out as a job.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  rawEmail: string,
  ip: string,
  log: FastifyBaseLogger,
): Promise<string> {
  const email = normaliseEmail(rawEmail);
  const limits = ctx.config.rateLimits;
  const within = await withinRateLimits(ctx.rateLimits, [
    { key: `reset:ip:${ip}`, rule: limits.resetPerIp },
    { key: `reset:ip-email:${ip}:${email}`, rule: limits.resetPerIpEmail },
  ]);
  if (!within) {
    log.warn('password reset request over the rate limit: nothing sent');
    return RESET_REQUESTED;
  }

  const user = await findUserByEmail(ctx.db, email);
  if (!user || user.status !== 'active') return RESET_REQUESTED;
  // Their password lives in their organisation's directory: a reset here would change nothing they sign in with.
  if (await directoryForSignIn(ctx, user, undefined)) throw new InvalidError(LDAP_RESET_REFUSED);

  // The link is made and mailed by a job (reset-mail.ts): the answer does not wait for it, and a mail server that is
  // down, or a process that stops, delays the mail without losing it.
  await ctx.jobs.enqueue('password-reset-mail', { userId: user.id });
  return RESET_REQUESTED;
}

export async function resetPassword(ctx: AppContext, token: string, newPassword: string): Promise<void> {
  const { row, user } = await usableReset(ctx.db, token);

  const passwordHash = await hashPassword(newPassword);
  await inTransaction(ctx.db, async (trx) => {
    if (!(await markPasswordResetUsed(trx, row.id))) throw new InvalidError(INVALID_RESET_TOKEN);
    await setNewPassword(trx, user.id, passwordHash);
  });
}

/**
 * The reset of this token and its person while the token can still set a password; otherwise 400
 * INVALID_RESET_TOKEN, the same for an unknown, used or expired token and an inactive person (it reveals nothing).
 */
export async function usableReset(db: Kysely<Database>, token: string) {
  const row = await findPasswordResetByHash(db, sha256Hex(token));
  if (!row || row.used_at || row.expires_at <= isoNow()) throw new InvalidError(INVALID_RESET_TOKEN);
  const user = await findUserById(db, row.user_id);
  if (!user || user.status !== 'active') throw new InvalidError(INVALID_RESET_TOKEN);
  return { row, user };
}

/**
 * Every way of choosing a password (reset, activation) ends here. `db` should be the caller's transaction.
 * A new password usually means "someone else may know the old one": every other reset link stops working and
 * every session ends, its refresh tokens and, at once, its access tokens.
 */
export async function setNewPassword(db: Kysely<Database>, userId: string, passwordHash: string): Promise<void> {
  await updateUserPassword(db, userId, passwordHash);
  await markUserPasswordResetsUsed(db, userId);
  await endAllSessions(db, userId);
}
