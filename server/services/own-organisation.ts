import type { UserRecord } from '../db/repositories/users';
import { ForbiddenError } from './errors';

/**
 * The caller's organisation, for the admin-only areas that act on it (the routes check the role already): a
 * person who belongs to none (the superuser) has nothing there to read or change.
 */
export function organisationOf(user: Pick<UserRecord, 'client_id'>): string {
  if (!user.client_id) throw new ForbiddenError();
  return user.client_id;
}
