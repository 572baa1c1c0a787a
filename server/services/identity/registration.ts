import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { RegisterRequest, RegisterResponse } from '../../../contract/registration';
import {
  ACTIVATION_ACCOUNT_INACTIVE,
  ACTIVATION_LINK_EXPIRED,
  ACTIVATION_LINK_INVALID,
  ACTIVATION_LINK_USED,
  ACTIVATION_TTL_HOURS,
  ADMIN_CREATES_USERS_ONLY,
  ALREADY_VERIFIED,
  CLIENT_ID_REQUIRED,
  EMAIL_TAKEN,
  OTHER_ORGANISATION_REGISTRATION,
  REGISTERED_BUT_MAIL_FAILED,
  REGISTERED_DIRECTORY_MAIL_LATE,
  RESEND_TO_INACTIVE_USER,
  SUPERUSER_CREATES_ADMINS_ONLY,
  USER_REGISTERED,
  VERIFICATION_EMAIL_FAILED,
} from '../../../contract/registration-constants';
import { USER_NOT_FOUND } from '../../../contract/users-constants';
import type { AppContext } from '../../context';
import type { Database } from '../../db/database';
import {
  expireUserActivations,
  findActivationByHash,
  insertActivation,
  markActivationUsed,
  markUserActivationsUsed,
  type ActivationRecord,
} from '../../db/repositories/activations';
import { findUserByEmail, findUserById, findUserInClient, insertUser, markUserVerified, type UserRecord } from '../../db/repositories/users';
import { isoNow } from '../../db/timestamps';
import { inTransaction } from '../../db/transaction';
import { isUniqueViolation } from '../../db/unique-violation';
import type { HeldJob } from '../../platform/jobs/queue';
import { setNewPassword } from './auth';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError, UnavailableError } from '../errors';
import { organisationFilter, type Scope } from '../scope';
import { resolveScope } from './access';
import { directoryOfOrganisation } from './ldap-sign-in';
import { hashPassword } from './passwords';
import { enforceRateLimits } from '../../platform/rate-limit';
import { claimSeat } from '../organisation/seats';
import { newOpaqueToken, sha256Hex } from './tokens';
import { toUserView } from './user-view';

const ACTIVATION_TTL_MS = ACTIVATION_TTL_HOURS * 3_600_000;

type Caller = Pick<UserRecord, 'id' | 'role' | 'client_id'>;

/** The organisation the caller may register `input` in, or the refusal (spec section 5: who creates whom). */
async function targetOrganisation(db: Kysely<Database>, caller: Caller, input: RegisterRequest): Promise<string> {
  if (caller.role === 'superuser') {
    if (input.role !== 'admin') throw new ForbiddenError(SUPERUSER_CREATES_ADMINS_ONLY);
    if (input.client_id === undefined) throw new InvalidError(CLIENT_ID_REQUIRED, { client_id: CLIENT_ID_REQUIRED });
  } else {
    if (caller.role !== 'admin') throw new ForbiddenError();
    if (input.role !== 'user') throw new ForbiddenError(ADMIN_CREATES_USERS_ONLY);
  }
  // The body's client_id narrows the scope as a route's ?client_id does (the superuser names any, an admin only theirs).
  const scope = await resolveScope(db, caller, input.client_id, OTHER_ORGANISATION_REGISTRATION);
  if (scope.kind !== 'organisation') throw new InvalidError(CLIENT_ID_REQUIRED, { client_id: CLIENT_ID_REQUIRED });
  return scope.clientId;
}

/** A fresh code for the person (their earlier ones end); `db` should be the caller's transaction. */
export async function newActivationCode(db: Kysely<Database>, userId: string): Promise<string> {
  await expireUserActivations(db, userId, isoNow());
  const code = newOpaqueToken();
  await insertActivation(db, { user_id: userId, code_hash: code.hash }, ACTIVATION_TTL_MS);
  return code.token;
}

export interface Registered {
  user: RegisterResponse;
  message: string;
}

/**
 * POST /auth/register. The new person is active, unverified and has no password or department; they choose the
 * password through the mailed link. Their seat is claimed in the same transaction that adds them. A mail that
 * cannot be sent does not undo the registration: the answer says so, and the admin can resend.
 */
export async function registerUser(ctx: AppContext, caller: Caller, input: RegisterRequest, log: FastifyBaseLogger): Promise<Registered> {
  const clientId = await targetOrganisation(ctx.db, caller, input);
  if (await findUserByEmail(ctx.db, input.email)) throw new ConflictError(EMAIL_TAKEN);
  // An organisation that signs in with its directory: its people have the directory's password already, so nothing
  // is to be activated; they are told how to sign in instead.
  const directory = await directoryOfOrganisation(ctx, clientId);

  let created: { user: UserRecord; mail: HeldJob };
  try {
    created = await inTransaction(ctx.db, async (trx) => {
      await claimSeat(trx, clientId);
      const user = await insertUser(trx, {
        client_id: clientId,
        name: input.name,
        email: input.email,
        password_hash: null,
        role: input.role,
        status: 'active',
        verified: directory !== undefined,
      });
      // Mailed by a job recorded with the person (activation-mail.ts: the link made then; directory-welcome-mail.ts),
      // run just below.
      const mail = directory
        ? await ctx.jobs.hold('directory-welcome-mail', { userId: user.id }, { trx })
        : await ctx.jobs.hold('activation-mail', { userId: user.id }, { trx });
      return { user, mail };
    });
  } catch (err) {
    // Someone registered the same address between the check and the insert.
    if (isUniqueViolation(err)) throw new ConflictError(EMAIL_TAKEN);
    throw err;
  }

  let sent = true;
  try {
    await created.mail.run();
  } catch (err) {
    sent = false;
    log.error({ err, user_id: created.user.id }, directory ? 'directory welcome mail could not be sent yet' : 'activation mail could not be sent');
  }
  const view = await toUserView(ctx.db, created.user);
  // The welcome mail is tried again by its job, so nothing is left for the admin to do.
  const message = sent ? USER_REGISTERED : directory ? REGISTERED_DIRECTORY_MAIL_LATE : REGISTERED_BUT_MAIL_FAILED;
  return { user: { ...view, activation_email_sent: sent }, message };
}

/** Mails a new link (ending the earlier ones) or answers 503 when the mail cannot be sent. */
async function resendTo(ctx: AppContext, user: UserRecord, log: FastifyBaseLogger): Promise<void> {
  const mail = await ctx.jobs.hold('activation-mail', { userId: user.id });
  try {
    await mail.run();
  } catch (err) {
    log.error({ err, user_id: user.id }, 'activation mail could not be sent');
    throw new UnavailableError(VERIFICATION_EMAIL_FAILED);
  }
}

/**
 * POST /auth/resend-activation?user_id=: an admin for a person of their own organisation (anyone else's is 404),
 * the superuser for anybody. Only while the person has not activated yet and is active.
 */
export async function resendActivationFor(ctx: AppContext, scope: Scope, userId: string, log: FastifyBaseLogger): Promise<void> {
  const clientId = organisationFilter(scope);
  const user = clientId === undefined ? await findUserById(ctx.db, userId) : await findUserInClient(ctx.db, clientId, userId);
  if (!user) throw new NotFoundError(USER_NOT_FOUND);
  if (user.verified) throw new ConflictError(ALREADY_VERIFIED);
  if (user.status !== 'active') throw new ConflictError(RESEND_TO_INACTIVE_USER);
  await resendTo(ctx, user, log);
}

const invalidLink = () => new InvalidError(ACTIVATION_LINK_INVALID, undefined, 'activation_invalid');
const usedLink = () => new ConflictError(ACTIVATION_LINK_USED, 'activation_used');
const expiredLink = () => new ConflictError(ACTIVATION_LINK_EXPIRED, 'activation_expired');

/**
 * POST /auth/resend-activation?activation_code= (public): someone holding an expired, unused link of a person who
 * has not activated yet gets a fresh link sent to that person's own address, so it reveals and hands out nothing.
 * Every other code answers like an unknown one.
 */
export async function resendExpiredActivation(ctx: AppContext, code: string, ip: string, log: FastifyBaseLogger): Promise<void> {
  await enforceRateLimits(ctx.rateLimits, [{ key: `activation-resend:ip:${ip}`, rule: ctx.config.rateLimits.resetPerIp }]);
  const row = await findActivationByHash(ctx.db, sha256Hex(code));
  if (!row || row.used_at || row.expires_at > isoNow()) throw invalidLink();
  const user = await findUserById(ctx.db, row.user_id);
  if (!user || user.verified || user.status !== 'active') throw invalidLink();
  await resendTo(ctx, user, log);
}

/** Why a code that could not be marked used was refused, read again after a concurrent request won. */
function refusalOf(row: ActivationRecord | undefined, now: string): Error {
  if (!row) return invalidLink();
  if (row.used_at) return usedLink();
  if (row.expires_at <= now) return expiredLink();
  return invalidLink();
}

/**
 * The activation of this code's hash and its person while the code can still activate; otherwise the refusal the
 * screen acts on (activation_invalid, activation_used, activation_expired, activation_inactive). Shared by the
 * activation itself and the screen's check of the link before any password is typed (link-checks.ts).
 */
export async function usableActivation(db: Kysely<Database>, hash: string): Promise<{ row: ActivationRecord; user: UserRecord }> {
  const row = await findActivationByHash(db, hash);
  if (!row) throw invalidLink();
  const user = await findUserById(db, row.user_id);
  if (!user) throw invalidLink();
  if (row.used_at || user.verified) throw usedLink();
  if (row.expires_at <= isoNow()) throw expiredLink();
  if (user.status !== 'active') throw new ForbiddenError(ACTIVATION_ACCOUNT_INACTIVE, 'activation_inactive');
  return { row, user };
}

/**
 * POST /auth/activate (public): a valid, unused, unexpired code sets the password and marks the person verified.
 * Single use, also under concurrent requests: exactly one of them marks the code used. The error's `code` tells the
 * screen what to offer: activation_invalid, activation_used (sign in), activation_expired (a new link),
 * activation_inactive (ask the administrator).
 */
export async function activateAccount(ctx: AppContext, code: string, newPassword: string): Promise<void> {
  const hash = sha256Hex(code);
  const { row, user } = await usableActivation(ctx.db, hash);

  const passwordHash = await hashPassword(newPassword);
  await inTransaction(ctx.db, async (trx) => {
    const now = isoNow();
    if (!(await markActivationUsed(trx, row.id, now))) throw refusalOf(await findActivationByHash(trx, hash), now);
    await setNewPassword(trx, user.id, passwordHash);
    await markUserVerified(trx, user.id);
    await markUserActivationsUsed(trx, user.id, now);
  });
}
