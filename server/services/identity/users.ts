import type { Kysely } from 'kysely';
import type { User } from '../../../contract/user';
import type { UpdateUserRequest, UserList } from '../../../contract/users';
import {
  OWN_ACCOUNT_UNDEACTIVATABLE,
  OWN_ROLE_UNCHANGEABLE,
  USER_DEPARTMENT_NOT_FOUND,
  USER_NOT_FOUND,
  USER_UNIT_NOT_IN_DEPARTMENT,
  USER_UNIT_REQUIRED,
  USER_UNIT_WITHOUT_DEPARTMENT,
} from '../../../contract/users-constants';
import type { Database } from '../../db/database';
import { findDepartmentInClient, findUnitInDepartment, unitNamesOf } from '../../db/repositories/departments';
import {
  findUserById,
  findUserInClient,
  listUsers,
  updateUserInClient,
  updateUserStatus,
  type UserChanges,
  type UserRecord,
} from '../../db/repositories/users';
import { inTransaction } from '../../db/transaction';
import { InvalidError, NotFoundError } from '../errors';
import { organisationFilter, type Scope } from '../scope';
import { pageWindow, totalPages } from '../paging';
import { claimSeat } from '../organisation/seats';
import { endAllSessions, renewAccessTokens } from './session';
import { toUserView, toUserViews } from './user-view';

export interface UserListOptions {
  page: number;
  pageSize: number;
  search?: string;
  status?: UserRecord['status'];
}

type Caller = Pick<UserRecord, 'id'>;

/**
 * GET /users (the routes allow admins and the superuser): the people of the organisation in scope (an admin's own,
 * or the one the superuser names with `client_id`), or everybody's for the superuser naming none.
 */
export async function listUsersIn(db: Kysely<Database>, scope: Scope, opts: UserListOptions): Promise<UserList> {
  const { rows, total } = await listUsers(db, {
    clientId: organisationFilter(scope),
    search: opts.search || undefined,
    status: opts.status,
    ...pageWindow(opts.page, opts.pageSize),
  });
  return {
    users: await toUserViews(db, rows),
    page: opts.page,
    page_size: opts.pageSize,
    total,
    total_pages: totalPages(total, opts.pageSize),
  };
}

// Changes by an admin, always within their own organisation (another organisation's person answers exactly like one
// that does not exist), or by the superuser, for a person of any organisation (never another superuser).

async function ownUser(db: Kysely<Database>, clientId: string, id: string): Promise<UserRecord> {
  const user = await findUserInClient(db, clientId, id);
  if (!user) throw new NotFoundError(USER_NOT_FOUND);
  return user;
}

/** The organisation of the person `id` as the scope allows it: the scope's own, or (every organisation) the person's. */
async function organisationOfPerson(db: Kysely<Database>, scope: Scope, id: string): Promise<string> {
  const clientId = organisationFilter(scope);
  if (clientId !== undefined) return clientId;
  const person = await findUserById(db, id);
  if (!person?.client_id) throw new NotFoundError(USER_NOT_FOUND);
  return person.client_id;
}

/**
 * The department and unit the person will have: a field left out keeps its value, except that a new department
 * clears the unit unless one is given. Both must belong to the organisation, and the unit to the department; a
 * department with units needs one of them.
 */
async function assignment(
  db: Kysely<Database>,
  clientId: string,
  user: UserRecord,
  input: UpdateUserRequest,
): Promise<Pick<UserChanges, 'department_id' | 'unit_id'>> {
  if (input.department_id === undefined && input.unit_id === undefined) return {};
  const departmentId = input.department_id === undefined ? user.department_id : input.department_id;
  const departmentChanged = departmentId !== user.department_id;
  const unitId = input.unit_id === undefined ? (departmentChanged ? null : user.unit_id) : input.unit_id;
  if (departmentId === null) {
    if (unitId !== null) throw new InvalidError(USER_UNIT_WITHOUT_DEPARTMENT, { unit_id: USER_UNIT_WITHOUT_DEPARTMENT });
    return { department_id: null, unit_id: null };
  }
  if (!(await findDepartmentInClient(db, clientId, departmentId))) {
    throw new InvalidError(USER_DEPARTMENT_NOT_FOUND, { department_id: USER_DEPARTMENT_NOT_FOUND });
  }
  if (unitId !== null && !(await findUnitInDepartment(db, departmentId, unitId))) {
    throw new InvalidError(USER_UNIT_NOT_IN_DEPARTMENT, { unit_id: USER_UNIT_NOT_IN_DEPARTMENT });
  }
  // Spec section 5: the unit is required; a department without units has none to give.
  if (unitId === null && (await unitNamesOf(db, departmentId)).length > 0) {
    throw new InvalidError(USER_UNIT_REQUIRED, { unit_id: USER_UNIT_REQUIRED });
  }
  return { department_id: departmentId, unit_id: unitId };
}

/** PATCH /users/{id}: name, role, department and unit of a person of the admin's organisation (the superuser's: any). */
export async function updateUser(db: Kysely<Database>, scope: Scope, admin: Caller, id: string, input: UpdateUserRequest): Promise<User> {
  const clientId = await organisationOfPerson(db, scope, id);
  const updated = await inTransaction(db, async (trx) => {
    const user = await ownUser(trx, clientId, id);
    if (input.role !== undefined && input.role !== user.role && user.id === admin.id) {
      throw new InvalidError(OWN_ROLE_UNCHANGEABLE, { role: OWN_ROLE_UNCHANGEABLE });
    }
    const changes: UserChanges = { ...(await assignment(trx, clientId, user, input)) };
    if (input.name !== undefined) changes.name = input.name;
    if (input.role !== undefined) changes.role = input.role;
    if (!(await updateUserInClient(trx, clientId, id, changes))) throw new NotFoundError(USER_NOT_FOUND);
    // Their access tokens name the old role: refused at once, the client refreshes into one naming the new role.
    if (changes.role !== undefined && changes.role !== user.role) await renewAccessTokens(trx, id);
    return ownUser(trx, clientId, id);
  });
  return toUserView(db, updated);
}

/**
 * PATCH /users/{id}/status. Deactivating ends every session of the person in the same transaction: their next refresh
 * fails, and their access tokens stop working at once (every request reads the status and the session version).
 */
export async function setUserStatus(
  db: Kysely<Database>,
  scope: Scope,
  admin: Caller,
  id: string,
  status: UserRecord['status'],
): Promise<User> {
  const clientId = await organisationOfPerson(db, scope, id);
  const updated = await inTransaction(db, async (trx) => {
    const user = await ownUser(trx, clientId, id);
    if (user.id === admin.id && status !== 'active') throw new InvalidError(OWN_ACCOUNT_UNDEACTIVATABLE);
    // Coming back takes a seat of the subscription, like a registration does.
    if (status === 'active' && user.status !== 'active') await claimSeat(trx, clientId);
    await updateUserStatus(trx, id, status);
    if (status !== 'active') await endAllSessions(trx, id);
    return ownUser(trx, clientId, id);
  });
  return toUserView(db, updated);
}
