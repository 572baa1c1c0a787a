import type { Kysely } from 'kysely';
import type { Database } from '../../db/database';
import { findClientById } from '../../db/repositories/clients';
import { findActiveSubscription } from '../../db/repositories/subscriptions';
import { findUserForSession, type UserRecord } from '../../db/repositories/users';
import { isoNow } from '../../db/timestamps';
import { ORGANISATION_NOT_FOUND } from '../../../contract/users-constants';
import { ForbiddenError, NotFoundError, UnauthenticatedError } from '../errors';
import { everyOrganisation, oneOrganisation, type Scope } from '../scope';
import { AccessTokenError, type AccessClaims, type TokenService } from './tokens';

export const INACTIVE_ACCOUNT = 'Your account is inactive. Please contact your administrator.';
export const UNVERIFIED_ACCOUNT = 'Your account is not activated yet. Please check your email for the activation link.';
export const SUBSCRIPTION_INACTIVE =
  'Your subscription is not active. Please contact your administrator to renew your subscription.';

export interface AccessBlock {
  detail: string;
  code?: 'subscription_expired';
}

/**
 * Why this person may not hold a session now, or null. Checked at login and at every refresh,
 * so deactivating a user or an organisation ends sessions within one access-token lifetime.
 */
export async function sessionBlock(db: Kysely<Database>, user: UserRecord): Promise<AccessBlock | null> {
  if (user.status !== 'active') return { detail: INACTIVE_ACCOUNT };
  if (!user.verified) return { detail: UNVERIFIED_ACCOUNT };
  if (user.role === 'superuser') return null;
  const client = user.client_id ? await findClientById(db, user.client_id) : undefined;
  const subscription =
    client?.status === 'active' ? await findActiveSubscription(db, client.id, isoNow()) : undefined;
  if (!subscription) return { detail: SUBSCRIPTION_INACTIVE, code: 'subscription_expired' };
  return null;
}

/** An access token whose sign-in was ended (logout, new password, deactivation, role change) before it expired. */
export const SESSION_ENDED = 'Session expired';

/**
 * The user an access token belongs to, read from the database on every request (not trusted from the token), so
 * deactivation, role changes and organisation deactivation take effect at once. The same read refuses a token of a
 * sign-in that was ended (its refresh family revoked: logout, a stolen refresh token) or signed before the person's
 * session version was raised (new password, deactivation, role change). Nothing of it is cached (the row is read
 * anyway), so every instance refuses such a token from its next request on. Throws UnauthenticatedError.
 */
export async function authenticateAccessToken(
  db: Kysely<Database>,
  tokens: TokenService,
  token: string | undefined,
): Promise<UserRecord> {
  if (!token) throw new UnauthenticatedError();
  let claims: AccessClaims;
  try {
    claims = await tokens.verifyAccessToken(token);
  } catch (err) {
    if (err instanceof AccessTokenError && err.reason === 'expired') throw new UnauthenticatedError(SESSION_ENDED);
    throw new UnauthenticatedError();
  }
  const found = await findUserForSession(db, claims.sub, claims.sid);
  if (!found) throw new UnauthenticatedError();
  const { client_status, session_live, ...user } = found;
  if (user.status !== 'active') throw new UnauthenticatedError(INACTIVE_ACCOUNT);
  if (!session_live || claims.sv !== user.session_version) throw new UnauthenticatedError(SESSION_ENDED);
  if (user.role !== 'superuser' && client_status !== 'active') {
    throw new UnauthenticatedError(SUBSCRIPTION_INACTIVE, 'subscription_expired');
  }
  return user;
}

/**
 * The organisations a person may see (see services/scope.ts): the superuser every one, or the one `requested`
 * names (404 when there is none such); anyone else their own, and naming another is refused with
 * `otherOrganisation` (403). The one place tenancy is decided: the auth guard calls it for every request, and with
 * the `client_id` a route reads (its query, or the registration's body).
 */
export async function resolveScope(
  db: Kysely<Database>,
  user: Pick<UserRecord, 'role' | 'client_id'>,
  requested?: string,
  otherOrganisation?: string,
): Promise<Scope> {
  if (user.role === 'superuser') {
    if (requested === undefined) return everyOrganisation;
    if (!(await findClientById(db, requested))) throw new NotFoundError(ORGANISATION_NOT_FOUND);
    return oneOrganisation(requested, true);
  }
  // Only the superuser belongs to no organisation; anyone else without one sees nothing of any.
  if (!user.client_id) throw new ForbiddenError();
  if (requested !== undefined && requested !== user.client_id) throw new ForbiddenError(otherOrganisation);
  return oneOrganisation(user.client_id);
}
