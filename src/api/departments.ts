import { paths } from '../../contract/api-paths';
import type { Department, DepartmentList } from '../../contract/departments';
import { api } from './http';

/** Every department of the caller's organisation with its units (the Profile selects). */
export async function listAllDepartments(): Promise<Department[]> {
  return (await api.get<DepartmentList>(paths.departments, { query: { paginate: 'false' } })).data.departments;
}
