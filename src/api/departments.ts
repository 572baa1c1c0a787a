import { pathTo, paths } from '../../contract/api-paths';
import type { Department, DepartmentDeletion, DepartmentList, Unit } from '../../contract/departments';
import { api } from './http';

/** Every department of the caller's organisation with its units (the Profile selects). */
export async function listAllDepartments(clientId?: string): Promise<Department[]> {
  const query = { paginate: 'false', ...(clientId ? { client_id: clientId } : {}) };
  return (await api.get<DepartmentList>(paths.departments, { query })).data.departments;
}

/** A page of the organisation's departments, by name (the Departments page). */
export async function fetchDepartmentPage(q: { page: number; pageSize: number; search: string }, signal?: AbortSignal): Promise<DepartmentList> {
  const query = { page: q.page, page_size: q.pageSize, ...(q.search ? { search: q.search } : {}) };
  return (await api.get<DepartmentList>(paths.departments, { query, signal })).data;
}

export async function createDepartment(name: string): Promise<Department> {
  return (await api.post<Department>(paths.departments, { name })).data;
}

export async function renameDepartment(id: string, name: string): Promise<Department> {
  return (await api.put<Department>(pathTo(paths.department, { id }), { name })).data;
}

export async function deleteDepartment(id: string): Promise<DepartmentDeletion> {
  return (await api.delete<DepartmentDeletion>(pathTo(paths.department, { id }))).data;
}

export async function addUnit(departmentId: string, name: string): Promise<Unit> {
  return (await api.post<Unit>(pathTo(paths.departmentUnits, { id: departmentId }), { name })).data;
}

export async function deleteUnit(departmentId: string, unitId: string): Promise<DepartmentDeletion> {
  return (await api.delete<DepartmentDeletion>(pathTo(paths.departmentUnit, { id: departmentId, unitId }))).data;
}
