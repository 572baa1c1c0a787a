import type { Kysely } from 'kysely';
import { NO_CURRENT_SUBSCRIPTION, SEAT_LIMIT_REACHED } from '../../../contract/registration-constants';
import type { Database } from '../../db/database';
import { countActiveUsers, lockOrganisation } from '../../db/repositories/seats';
import { findActiveSubscription } from '../../db/repositories/subscriptions';
import { isoNow } from '../../db/timestamps';
import { ConflictError } from '../errors';

/**
 * Refuses (ConflictError) when one more active person would not fit the organisation's subscription in force
 * (start <= now <= expiry): `max_users` counts active people, verified or not. `db` must be the transaction that
 * then adds or activates the person: the organisation stays locked until it ends, so parallel requests cannot
 * both take the last seat.
 */
export async function claimSeat(db: Kysely<Database>, clientId: string): Promise<void> {
  await lockOrganisation(db, clientId);
  const subscription = await findActiveSubscription(db, clientId, isoNow());
  if (!subscription) throw new ConflictError(NO_CURRENT_SUBSCRIPTION);
  if ((await countActiveUsers(db, clientId)) + 1 > subscription.max_users) {
    throw new ConflictError(SEAT_LIMIT_REACHED(subscription.max_users));
  }
}
