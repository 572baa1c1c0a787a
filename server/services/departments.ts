import type { Kysely } from 'kysely';
import type { DepartmentList } from '../../contract/departments';
import type { Database } from '../db/database';
import { listDepartments, listUnitsOfDepartments } from '../db/repositories/departments';
import type { UserRecord } from '../db/repositories/users';

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

/** GET /departments: the caller's organisation's. The superuser belongs to none, so gets an empty page. */
export async function listOwnDepartments(
  db: Kysely<Database>,
  user: Pick<UserRecord, 'client_id'>,
  opts: DepartmentListOptions,
): Promise<DepartmentList> {
  if (user.client_id) return listClientDepartments(db, user.client_id, opts);
  return { departments: [], page: 1, page_size: opts.pageSize, total: 0, total_pages: opts.paginate ? 0 : 1 };
}
