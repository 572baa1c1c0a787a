import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, DepartmentsTable, UnitsTable } from '../database';
import { isoNow } from '../timestamps';

export type DepartmentRecord = Selectable<DepartmentsTable>;
export type UnitRecord = Selectable<UnitsTable>;

export async function insertDepartment(db: Kysely<Database>, clientId: string, name: string): Promise<DepartmentRecord> {
  const row: DepartmentRecord = { id: randomUUID(), client_id: clientId, name, created_at: isoNow() };
  await db.insertInto('departments').values(row).execute();
  return row;
}

export async function insertUnit(db: Kysely<Database>, departmentId: string, name: string): Promise<UnitRecord> {
  const row: UnitRecord = { id: randomUUID(), department_id: departmentId, name };
  await db.insertInto('units').values(row).execute();
  return row;
}

export async function findDepartmentInClient(
  db: Kysely<Database>,
  clientId: string,
  id: string,
): Promise<DepartmentRecord | undefined> {
  return db.selectFrom('departments').selectAll().where('id', '=', id).where('client_id', '=', clientId).executeTakeFirst();
}

export async function findUnitInDepartment(
  db: Kysely<Database>,
  departmentId: string,
  id: string,
): Promise<UnitRecord | undefined> {
  return db.selectFrom('units').selectAll().where('id', '=', id).where('department_id', '=', departmentId).executeTakeFirst();
}

export interface DepartmentListFilter {
  /** Undefined: every organisation's (the superuser naming none). */
  clientId: string | undefined;
  search?: string;
  /** Omit both for every matching row. */
  limit?: number;
  offset?: number;
}

/** Departments of one organisation (or all) by name; `search` matches the name case-insensitively on both databases. */
export async function listDepartments(
  db: Kysely<Database>,
  filter: DepartmentListFilter,
): Promise<{ rows: DepartmentRecord[]; total: number }> {
  let query = db.selectFrom('departments');
  if (filter.clientId !== undefined) query = query.where('client_id', '=', filter.clientId);
  if (filter.search) {
    const pattern = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where(sql<boolean>`lower(name) like ${pattern} escape '\\'`);
  }
  const { n } = await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  let rows = query.selectAll().orderBy('name').orderBy('id');
  if (filter.limit !== undefined) rows = rows.limit(filter.limit).offset(filter.offset ?? 0);
  return { rows: await rows.execute(), total: Number(n) };
}

export async function listUnitsOfDepartments(db: Kysely<Database>, departmentIds: string[]): Promise<UnitRecord[]> {
  if (departmentIds.length === 0) return [];
  return db.selectFrom('units').selectAll().where('department_id', 'in', departmentIds).orderBy('name').orderBy('id').execute();
}

export interface Named {
  id: string;
  name: string;
}

/** Every department of one organisation, id and name only (to compare a new name with). */
export async function departmentNamesOf(db: Kysely<Database>, clientId: string): Promise<Named[]> {
  return db.selectFrom('departments').select(['id', 'name']).where('client_id', '=', clientId).execute();
}

/** Every unit of one department, id and name only (to compare a new name with). */
export async function unitNamesOf(db: Kysely<Database>, departmentId: string): Promise<Named[]> {
  return db.selectFrom('units').select(['id', 'name']).where('department_id', '=', departmentId).execute();
}

/** The department `id` if it belongs to `clientId`: every write below is scoped by it in the statement itself. */
function ownDepartment(db: Kysely<Database>, clientId: string, id: string) {
  return db.selectFrom('departments').select('id').where('id', '=', id).where('client_id', '=', clientId);
}

/** False for an unknown id and for another organisation's department alike. */
export async function renameDepartmentInClient(db: Kysely<Database>, clientId: string, id: string, name: string): Promise<boolean> {
  const result = await db.updateTable('departments').set({ name }).where('id', '=', id).where('client_id', '=', clientId).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** False unless the unit belongs to the department and the department to the organisation. */
export async function renameUnitInClient(
  db: Kysely<Database>,
  clientId: string,
  departmentId: string,
  unitId: string,
  name: string,
): Promise<boolean> {
  const result = await db
    .updateTable('units')
    .set({ name })
    .where('id', '=', unitId)
    .where('department_id', 'in', ownDepartment(db, clientId, departmentId))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * People who belonged to the department (or to a unit, `unitId`, of it) lose their department and unit both, so
 * they are sent to Profile again. Done here rather than left to the foreign keys, which would clear only the unit
 * of a deleted unit's people. Returns how many people changed.
 */
async function unassignMembers(db: Kysely<Database>, clientId: string, departmentId: string, unitId?: string): Promise<number> {
  let units = db.selectFrom('units').select('id').where('department_id', 'in', ownDepartment(db, clientId, departmentId));
  if (unitId !== undefined) units = units.where('id', '=', unitId);
  let query = db.updateTable('users').set({ department_id: null, unit_id: null, updated_at: isoNow() });
  query =
    unitId === undefined
      ? query.where((eb) => eb.or([eb('department_id', 'in', ownDepartment(db, clientId, departmentId)), eb('unit_id', 'in', units)]))
      : query.where('unit_id', 'in', units);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Deletes the organisation's department with its units (foreign key cascade) and unassigns its people. Undefined
 * for an unknown id and for another organisation's department alike, else how many people were unassigned.
 * Run in a transaction.
 */
export async function deleteDepartmentInClient(db: Kysely<Database>, clientId: string, id: string): Promise<number | undefined> {
  const unassigned = await unassignMembers(db, clientId, id);
  const result = await db.deleteFrom('departments').where('id', '=', id).where('client_id', '=', clientId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1 ? unassigned : undefined;
}

/** Like deleteDepartmentInClient, for one unit of the organisation's department. Run in a transaction. */
export async function deleteUnitInClient(
  db: Kysely<Database>,
  clientId: string,
  departmentId: string,
  unitId: string,
): Promise<number | undefined> {
  const unassigned = await unassignMembers(db, clientId, departmentId, unitId);
  const result = await db
    .deleteFrom('units')
    .where('id', '=', unitId)
    .where('department_id', 'in', ownDepartment(db, clientId, departmentId))
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1 ? unassigned : undefined;
}
