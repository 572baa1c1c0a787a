import type { Kysely } from 'kysely';
import { featureNames, featureNotIncluded, type Feature } from '../../../contract/features';
import { DEFAULT_PACKAGE } from '../../../contract/user';
import type { Database } from '../../db/database';
import { parseFeatures } from '../../db/repositories/packages';
import { findActiveSubscription } from '../../db/repositories/subscriptions';
import type { UserRecord } from '../../db/repositories/users';
import { isoNow } from '../../db/timestamps';
import { ForbiddenError } from '../errors';

/**
 * What a person may do in the chat comes from the package row of their organisation's subscription in force (its
 * `features`, migration 2026-11-30-01), read afresh on each request: a new subscription or a package's new features
 * apply from the person's next request (their next refresh of /users/me for what the SPA offers). Without a
 * subscription in force (the superuser) a person gets browsing and reasoning.
 */
const WITHOUT_PACKAGE: readonly Feature[] = ['browsing', 'reasoning'];

export interface Entitlements {
  /** The package type of the subscription in force, else 'free'. */
  packageName: string;
  features: Feature[];
}

/** The chat features among a package's stored feature names, in the contract's order (others are not the chat's). */
export function chatFeaturesIn(stored: readonly string[]): Feature[] {
  return featureNames.filter((feature) => stored.includes(feature));
}

export async function entitlementsOf(db: Kysely<Database>, user: Pick<UserRecord, 'client_id'>): Promise<Entitlements> {
  const subscription = user.client_id ? await findActiveSubscription(db, user.client_id, isoNow()) : undefined;
  if (!subscription) return { packageName: DEFAULT_PACKAGE, features: [...WITHOUT_PACKAGE] };
  return { packageName: subscription.package_type, features: chatFeaturesIn(parseFeatures(subscription.package_features)) };
}

/** The package type of the organisation's subscription in force, else 'free' (also for the superuser). */
export async function packageNameOf(db: Kysely<Database>, user: Pick<UserRecord, 'client_id'>): Promise<string> {
  return (await entitlementsOf(db, user)).packageName;
}

/** Refuses (ForbiddenError, code feature_not_included) the first requested feature the person's package lacks. */
export async function requireFeatures(db: Kysely<Database>, user: UserRecord, requested: readonly Feature[]): Promise<void> {
  if (requested.length === 0) return;
  const { features } = await entitlementsOf(db, user);
  const missing = requested.find((feature) => !features.includes(feature));
  if (missing) throw new ForbiddenError(featureNotIncluded(missing), 'feature_not_included');
}
