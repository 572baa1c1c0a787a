import type { Kysely } from 'kysely';
import type { Department, DepartmentList, Unit } from '../../../contract/departments';
import { DEPARTMENT_NAME_TAKEN, DEPARTMENT_NOT_FOUND, UNIT_NAME_TAKEN, UNIT_NOT_FOUND } from '../../../contract/departments-constants';
import { nameKey } from '../../../shared/department-name';
import type { Database } from '../../db/database';
import {
  deleteDepartmentInClient,
  deleteUnitInClient,
  departmentNamesOf,
  findDepartmentInClient,
  findUnitInDepartment,
  insertDepartment,
  insertUnit,
  listDepartments,
  listUnitsOfDepartments,
  renameDepartmentInClient,
  renameUnitInClient,
  unitNamesOf,
  type Named,
} from '../../db/repositories/departments';
import { inTransaction } from '../../db/transaction';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/unique-violation';
import { ConflictError, NotFoundError } from '../errors';
import { organisationFilter, organisationIn, type Scope } from '../scope';

export interface DepartmentListOptions {
  page: number;
  pageSize: number;
  search?: string;
  paginate: boolean;
}

/**
 * GET /departments: the departments of the organisation in scope, each with its units, by name; the superuser,
 * naming none, reads every organisation's.
 */
export async function listDepartmentsIn(db: Kysely<Database>, scope: Scope, opts: DepartmentListOptions): Promise<DepartmentList> {
  const search = opts.search || undefined;
  const clientId = organisationFilter(scope);
  const { rows, total } = opts.paginate
    ? await listDepartments(db, { clientId, search, limit: opts.pageSize, offset: (opts.page - 1) * opts.pageSize })
    : await listDepartments(db, { clientId, search });
  const units = await listUnitsOfDepartments(db, rows.map((d) => d.id));
  const departments = rows.map((d) => ({
    id: d.id,
    name: d.name,
    units: units.filter((u) => u.department_id === d.id).map((u) => ({ id: u.id, name: u.name })),
  }));
  if (!opts.paginate) {
    return { departments, page: 1, page_size: Math.max(total, 1), total, total_pages: 1 };
  }
  return { departments, page: opts.page, page_size: opts.pageSize, total, total_pages: Math.ceil(total / opts.pageSize) };
}

// The admin's changes (the routes allow admins only), always within the caller's own organisation: another
// organisation's department or unit answers exactly like one that does not exist. Names arrive trimmed and within
// the limit (the contract's schemas); whether one is taken is decided by nameKey, the same on both databases.

/** Throws ConflictError(`taken`) when another of `siblings` (not `selfId`) has the name, case aside. */
function ensureNameFree(siblings: readonly Named[], name: string, taken: string, selfId?: string): void {
  const key = nameKey(name);
  if (siblings.some((s) => s.id !== selfId && nameKey(s.name) === key)) throw new ConflictError(taken);
}

/**
 * Runs a write guarded by ensureNameFree; the unique indexes on lower(name) catch a clash that raced past the
 * check (two admins at once), which answers the same 409.
 */
async function withUniqueName<T>(taken: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError(taken);
    // Only a unit names another row: its department, deleted by another admin meanwhile.
    if (isForeignKeyViolation(err)) throw new NotFoundError(DEPARTMENT_NOT_FOUND);
    throw err;
  }
}

async function ownDepartment(db: Kysely<Database>, clientId: string, id: string) {
  const department = await findDepartmentInClient(db, clientId, id);
  if (!department) throw new NotFoundError(DEPARTMENT_NOT_FOUND);
  return department;
}

export async function createDepartment(db: Kysely<Database>, scope: Scope, name: string): Promise<Department> {
  const clientId = organisationIn(scope);
  return withUniqueName(DEPARTMENT_NAME_TAKEN, () =>
    inTransaction(db, async (trx) => {
      ensureNameFree(await departmentNamesOf(trx, clientId), name, DEPARTMENT_NAME_TAKEN);
      const department = await insertDepartment(trx, clientId, name);
      return { id: department.id, name: department.name, units: [] };
    }),
  );
}

/** The department renamed, with its units. */
export async function renameDepartment(db: Kysely<Database>, scope: Scope, id: string, name: string): Promise<Department> {
  const clientId = organisationIn(scope);
  return withUniqueName(DEPARTMENT_NAME_TAKEN, () =>
    inTransaction(db, async (trx) => {
      await ownDepartment(trx, clientId, id);
      ensureNameFree(await departmentNamesOf(trx, clientId), name, DEPARTMENT_NAME_TAKEN, id);
      if (!(await renameDepartmentInClient(trx, clientId, id, name))) throw new NotFoundError(DEPARTMENT_NOT_FOUND);
      const units = await listUnitsOfDepartments(trx, [id]);
      return { id, name, units: units.map((u) => ({ id: u.id, name: u.name })) };
    }),
  );
}

/** Deletes the department and its units; its people lose their department and unit. Returns how many they were. */
export async function deleteDepartment(db: Kysely<Database>, scope: Scope, id: string): Promise<number> {
  const clientId = organisationIn(scope);
  const unassigned = await inTransaction(db, (trx) => deleteDepartmentInClient(trx, clientId, id));
  if (unassigned === undefined) throw new NotFoundError(DEPARTMENT_NOT_FOUND);
  return unassigned;
}

export async function addUnit(db: Kysely<Database>, scope: Scope, departmentId: string, name: string): Promise<Unit> {
  const clientId = organisationIn(scope);
  return withUniqueName(UNIT_NAME_TAKEN, () =>
    inTransaction(db, async (trx) => {
      await ownDepartment(trx, clientId, departmentId);
      ensureNameFree(await unitNamesOf(trx, departmentId), name, UNIT_NAME_TAKEN);
      const unit = await insertUnit(trx, departmentId, name);
      return { id: unit.id, name: unit.name };
    }),
  );
}

export async function renameUnit(db: Kysely<Database>, scope: Scope, departmentId: string, unitId: string, name: string): Promise<Unit> {
  const clientId = organisationIn(scope);
  return withUniqueName(UNIT_NAME_TAKEN, () =>
    inTransaction(db, async (trx) => {
      await ownDepartment(trx, clientId, departmentId);
      if (!(await findUnitInDepartment(trx, departmentId, unitId))) throw new NotFoundError(UNIT_NOT_FOUND);
      ensureNameFree(await unitNamesOf(trx, departmentId), name, UNIT_NAME_TAKEN, unitId);
      if (!(await renameUnitInClient(trx, clientId, departmentId, unitId, name))) throw new NotFoundError(UNIT_NOT_FOUND);
      return { id: unitId, name };
    }),
  );
}

/** Deletes the unit; its people lose their department and unit (sent to Profile again). Returns how many they were. */
export async function deleteUnit(db: Kysely<Database>, scope: Scope, departmentId: string, unitId: string): Promise<number> {
  const clientId = organisationIn(scope);
  const unassigned = await inTransaction(db, async (trx) => {
    await ownDepartment(trx, clientId, departmentId);
    return deleteUnitInClient(trx, clientId, departmentId, unitId);
  });
  if (unassigned === undefined) throw new NotFoundError(UNIT_NOT_FOUND);
  return unassigned;
}
