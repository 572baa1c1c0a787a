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
  clientId: string;
  search?: string;
  /** Omit both for every matching row. */
  limit?: number;
  offset?: number;
}

/** Departments of one organisation by name; `search` matches the name case-insensitively on both databases. */
export async function listDepartments(
  db: Kysely<Database>,
  filter: DepartmentListFilter,
): Promise<{ rows: DepartmentRecord[]; total: number }> {
  let query = db.selectFrom('departments').where('client_id', '=', filter.clientId);
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
