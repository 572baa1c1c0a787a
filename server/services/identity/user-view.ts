import type { Kysely } from 'kysely';
import type { User } from '../../../contract/user';
import type { Database } from '../../db/database';
import type { UserRecord } from '../../db/repositories/users';
import { entitlementsOf, type Entitlements } from '../organisation/entitlements';

/**
 * The contract's user: package_name is the type of the organisation's subscription in force, else 'free'; features
 * are that package's (organisation/entitlements.ts).
 */
export async function toUserView(db: Kysely<Database>, user: UserRecord): Promise<User> {
  return viewOf(user, await entitlementsOf(db, user));
}

/**
 * The person's own view (sign-in, /users/me, their profile and preferences): with their theme, which an admin's
 * lists of people leave out (a personal setting, nobody else's business).
 */
export async function toOwnUserView(db: Kysely<Database>, user: UserRecord): Promise<User> {
  return { ...(await toUserView(db, user)), theme: user.theme };
}

/** Never the password hash: only the contract's fields. */
function viewOf(user: UserRecord, { packageName, features }: Entitlements): User {
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
    features,
  };
}

/** Many users' views, reading each organisation's package once. */
export async function toUserViews(db: Kysely<Database>, users: readonly UserRecord[]): Promise<User[]> {
  const packages = new Map<string | null, Promise<Entitlements>>();
  const packageOf = (user: UserRecord) => {
    let found = packages.get(user.client_id);
    if (!found) {
      found = entitlementsOf(db, user);
      packages.set(user.client_id, found);
    }
    return found;
  };
  return Promise.all(users.map(async (user) => viewOf(user, await packageOf(user))));
}
