import type { Kysely } from 'kysely';
import { DEFAULT_PACKAGE, type User } from '../../contract/user';
import type { Database } from '../db/database';
import { findActiveSubscription } from '../db/repositories/subscriptions';
import type { UserRecord } from '../db/repositories/users';
import { isoNow } from '../db/timestamps';
import { featuresOf } from './entitlements';

/** The contract's user: package_name is the type of the organisation's subscription in force, else 'free'. */
export async function toUserView(db: Kysely<Database>, user: UserRecord): Promise<User> {
  const subscription = user.client_id ? await findActiveSubscription(db, user.client_id, isoNow()) : undefined;
  const packageName = subscription?.package_type ?? DEFAULT_PACKAGE;
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    status: user.status,
    verified: user.verified,
    package_name: packageName,
    image_url: user.image_url,
    department_id: user.department_id,
    unit_id: user.unit_id,
    client_id: user.client_id,
    features: featuresOf(packageName),
  };
}
