import type { FastifyBaseLogger } from 'fastify';
import { LDAP_DIRECTORY_DOWN } from '../../../contract/ldap-settings-constants';
import type { AppContext } from '../../context';
import { findClientById, type ClientRecord } from '../../db/repositories/clients';
import { findClientsByOrigin } from '../../db/repositories/clients-by-origin';
import { findActiveSubscription } from '../../db/repositories/subscriptions';
import { findUserByEmail, insertUser, type UserRecord } from '../../db/repositories/users';
import { isoNow } from '../../db/timestamps';
import { inTransaction } from '../../db/transaction';
import { isUniqueViolation } from '../../db/unique-violation';
import { effectiveAuthType } from '../organisation/effective-auth-type';
import { UnavailableError } from '../errors';
import { claimSeat } from '../organisation/seats';
import { verifyWithDirectory, type DirectorySettings } from './ldap-directory';
import { directorySettingsOf } from './ldap-settings';

// Sign-in of the people of a premium client whose auth type is ldap: the client's directory checks the password.

export interface Directory {
  clientId: string;
  settings: DirectorySettings;
}

/** The client's directory when it signs in with one now: auth type ldap allowed by the package in force. */
async function directoryOfClient(ctx: AppContext, client: ClientRecord): Promise<Directory | undefined> {
  if (client.status !== 'active') return undefined;
  const subscription = await findActiveSubscription(ctx.db, client.id, isoNow());
  if (!subscription || effectiveAuthType(client.auth_type, subscription.package_type) !== 'ldap') return undefined;
  const settings = await directorySettingsOf(ctx, client.id);
  return settings && { clientId: client.id, settings };
}

/** The directory of the organisation `clientId` when its people sign in with one now (registration asks). */
export async function directoryOfOrganisation(ctx: AppContext, clientId: string): Promise<Directory | undefined> {
  const client = await findClientById(ctx.db, clientId);
  return client && directoryOfClient(ctx, client);
}

/**
 * Which directory judges this sign-in, if any. A known person: their organisation's, when it signs in with one
 * (the superuser never). Someone not known yet: the directory of the one organisation whose origin URL the sign-in
 * came from (the address the organisation's people use), so the first sign-in can create them.
 */
export async function directoryForSignIn(
  ctx: AppContext,
  user: UserRecord | undefined,
  origin: string | undefined,
): Promise<Directory | undefined> {
  if (user) {
    if (user.role === 'superuser' || !user.client_id) return undefined;
    return directoryOfOrganisation(ctx, user.client_id);
  }
  if (!origin) return undefined;
  const found: Directory[] = [];
  for (const client of await findClientsByOrigin(ctx.db, origin)) {
    const directory = await directoryOfClient(ctx, client);
    if (directory) found.push(directory);
  }
  // Two directory organisations on one address cannot tell whose a new person is.
  return found.length === 1 ? found[0] : undefined;
}

/**
 * Checks the password with the directory. Verified: the known person, or a new active, verified person of that
 * organisation (their seat claimed like a registration's; no password of ours). Refused: undefined (the caller
 * answers as for a wrong password). Down or slow: 503 with a sentence, within the configured timeout.
 */
export async function signInWithDirectory(
  ctx: AppContext,
  directory: Directory,
  user: UserRecord | undefined,
  email: string,
  password: string,
  log: FastifyBaseLogger,
): Promise<UserRecord | undefined> {
  const answer = await verifyWithDirectory(directory.settings, email, password, ctx.config.ldap.timeoutMs);
  if (answer.outcome === 'unavailable') {
    log.warn({ client_id: directory.clientId, cause: answer.cause }, 'directory sign-in: the directory could not be used');
    throw new UnavailableError(LDAP_DIRECTORY_DOWN);
  }
  if (answer.outcome === 'refused') {
    log.info({ client_id: directory.clientId, why: answer.why }, 'directory sign-in refused');
    return undefined;
  }
  if (user) return user;
  try {
    return await inTransaction(ctx.db, async (trx) => {
      await claimSeat(trx, directory.clientId);
      return insertUser(trx, {
        client_id: directory.clientId,
        name: answer.name ?? email.split('@')[0] ?? email,
        email,
        password_hash: null,
        role: 'user',
        status: 'active',
        verified: true,
      });
    });
  } catch (err) {
    // The same person's two first sign-ins at once: the other one created them.
    if (isUniqueViolation(err)) return findUserByEmail(ctx.db, email);
    throw err;
  }
}
