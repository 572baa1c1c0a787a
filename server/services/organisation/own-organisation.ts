import type { Kysely } from 'kysely';
import { ORGANISATION_NOT_FOUND } from '../../../contract/users-constants';
import type { Database } from '../../db/database';
import { findClientById } from '../../db/repositories/clients';
import type { UserRecord } from '../../db/repositories/users';
import { ForbiddenError, NotFoundError } from '../errors';

/**
 * The caller's organisation, for the admin-only areas that act on it (the routes check the role already): a
 * person who belongs to none (the superuser) has nothing there to read or change.
 */
export function organisationOf(user: Pick<UserRecord, 'client_id'>): string {
  if (!user.client_id) throw new ForbiddenError();
  return user.client_id;
}

/**
 * Which organisation a list reads for this caller (the users list, the feedback inbox): the superuser every one, or
 * the one named (404 when there is none such); anyone else their own, and naming another is `otherOrganisation`
 * (403). One place, so every tenant-scoped list refuses the same way.
 */
export async function listScope(
  db: Kysely<Database>,
  caller: Pick<UserRecord, 'role' | 'client_id'>,
  requested: string | undefined,
  otherOrganisation: string,
): Promise<string | undefined> {
  if (caller.role === 'superuser') {
    if (requested !== undefined && !(await findClientById(db, requested))) throw new NotFoundError(ORGANISATION_NOT_FOUND);
    return requested;
  }
  const own = organisationOf(caller);
  if (requested !== undefined && requested !== own) throw new ForbiddenError(otherOrganisation);
  return own;
}
