import type { Kysely } from 'kysely';
import { featureNotIncluded, type Feature } from '../../../contract/features';
import { DEFAULT_PACKAGE } from '../../../contract/user';
import type { Database } from '../../db/database';
import { findActiveSubscription } from '../../db/repositories/subscriptions';
import type { UserRecord } from '../../db/repositories/users';
import { isoNow } from '../../db/timestamps';
import { ForbiddenError } from '../errors';

/**
 * What each package allows in the chat. Premium adds image generation; every other package (free, standard, or
 * one this table does not know yet) gets browsing and reasoning. One place, read by the user view the SPA gets
 * and by the send that enforces it.
 */
const PREMIUM: readonly Feature[] = ['browsing', 'image_generation', 'reasoning'];
const BASIC: readonly Feature[] = ['browsing', 'reasoning'];

export function featuresOf(packageName: string): Feature[] {
  return [...(packageName.toLowerCase() === 'premium' ? PREMIUM : BASIC)];
}

/** The package type of the organisation's subscription in force, else 'free' (also for the superuser). */
export async function packageNameOf(db: Kysely<Database>, user: Pick<UserRecord, 'client_id'>): Promise<string> {
  const subscription = user.client_id ? await findActiveSubscription(db, user.client_id, isoNow()) : undefined;
  return subscription?.package_type ?? DEFAULT_PACKAGE;
}

/** Refuses (ForbiddenError, code feature_not_included) the first requested feature the person's package lacks. */
export async function requireFeatures(db: Kysely<Database>, user: UserRecord, requested: readonly Feature[]): Promise<void> {
  if (requested.length === 0) return;
  const allowed = featuresOf(await packageNameOf(db, user));
  const missing = requested.find((feature) => !allowed.includes(feature));
  if (missing) throw new ForbiddenError(featureNotIncluded(missing), 'feature_not_included');
}
