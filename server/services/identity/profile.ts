import type { Kysely } from 'kysely';
import { DEPARTMENT_NOT_FOUND } from '../../../contract/departments-constants';
import type { UpdateProfileRequest, UpdateProfileResponse } from '../../../contract/profile';
import type { Database } from '../../db/database';
import { findDepartmentInClient, findUnitInDepartment } from '../../db/repositories/departments';
import { findUserById, updateUserDepartment, type UserRecord } from '../../db/repositories/users';
import { InvalidError } from '../errors';
import { toOwnUserView } from './user-view';

export const PROFILE_UPDATED = 'Profile updated successfully';
export const UNIT_NOT_IN_DEPARTMENT = 'Unit does not belong to the selected department';

/** Sets the caller's department and unit; both must belong to the caller's own organisation. */
export async function updateOwnProfile(
  db: Kysely<Database>,
  user: UserRecord,
  input: UpdateProfileRequest,
): Promise<UpdateProfileResponse> {
  const department = user.client_id ? await findDepartmentInClient(db, user.client_id, input.department_id) : undefined;
  if (!department) throw new InvalidError(DEPARTMENT_NOT_FOUND, { department_id: DEPARTMENT_NOT_FOUND });
  const unitId = input.unit_id ?? null;
  if (unitId && !(await findUnitInDepartment(db, department.id, unitId))) {
    throw new InvalidError(UNIT_NOT_IN_DEPARTMENT, { unit_id: UNIT_NOT_IN_DEPARTMENT });
  }
  await updateUserDepartment(db, user.id, department.id, unitId);
  const updated = await findUserById(db, user.id);
  return { user: await toOwnUserView(db, updated ?? user) };
}
