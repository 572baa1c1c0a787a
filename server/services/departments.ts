import type { Kysely } from 'kysely';
import type { DepartmentList } from '../../contract/departments';
import type { Database } from '../db/database';
import { listDepartments, listUnitsOfDepartments } from '../db/repositories/departments';

export interface DepartmentListOptions {
  page: number;
  pageSize: number;
  search?: string;
  paginate: boolean;
}

/** Departments of one organisation, each with its units, by name. */
export async function listClientDepartments(
  db: Kysely<Database>,
  clientId: string,
  opts: DepartmentListOptions,
): Promise<DepartmentList> {
  const search = opts.search || undefined;
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
