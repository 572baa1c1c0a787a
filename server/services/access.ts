import type { Kysely } from 'kysely';
import type { Database } from '../db/database';
import { findClientById } from '../db/repositories/clients';
import { findActiveSubscription } from '../db/repositories/subscriptions';
import type { UserRecord } from '../db/repositories/users';
import { isoNow } from '../db/timestamps';

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
