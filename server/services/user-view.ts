import type { Kysely } from 'kysely';
import type { User } from '../../contract/user';
import type { Database } from '../db/database';
import type { UserRecord } from '../db/repositories/users';
import { featuresOf, packageNameOf } from './entitlements';

/** The contract's user: package_name is the type of the organisation's subscription in force, else 'free'. */
export async function toUserView(db: Kysely<Database>, user: UserRecord): Promise<User> {
  const packageName = await packageNameOf(db, user);
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
