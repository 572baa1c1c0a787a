import { fromPromise } from 'xstate';
import type { Deletion, SaveNameRequest } from '../../../machines/departments-admin.machine';
import { pagerMachine, type PageRequest, type PageResult } from '../../../machines/pager.machine';
import type { Draft } from '../../../machines/record-editor.machine';
import type { addUnit, createDepartment, deleteDepartment, deleteUnit, fetchDepartmentPage, renameDepartment } from '../../api/departments';
import { withServerDetail } from '../../lib/load-failure';

/** The API functions the Departments page calls (src/api/departments.ts; tests pass fakes). */
export interface DepartmentsApi {
  fetchDepartmentPage: typeof fetchDepartmentPage;
  createDepartment: typeof createDepartment;
  renameDepartment: typeof renameDepartment;
  addUnit: typeof addUnit;
  deleteDepartment: typeof deleteDepartment;
  deleteUnit: typeof deleteUnit;
}

/**
 * The Departments page's side effects, for the record editor (machines/record-editor.machine.ts): a page of the
 * list, a dialog's save (create, rename, add a unit) and its one act, a delete (a department or a unit). Built once
 * at module level: `recordEditorMachine.provide({ actors: defineDepartmentsActors({ api }) })`.
 */
export function defineDepartmentsActors({ api }: { api: DepartmentsApi }) {
  const save = (request: SaveNameRequest): Promise<unknown> => {
    if (request.kind === 'createDepartment') return api.createDepartment(request.name);
    if (request.kind === 'renameDepartment') return api.renameDepartment(request.departmentId, request.name);
    return api.addUnit(request.departmentId, request.name);
  };
  return {
    list: pagerMachine.provide({
      actors: {
        fetchPage: fromPromise<PageResult, PageRequest>(async ({ input, signal }) => {
          const list = await api.fetchDepartmentPage({ page: input.page, pageSize: input.pageSize, search: input.query }, signal);
          return { items: list.departments, page: list.page, total: list.total, totalPages: list.total_pages };
        }),
      },
    }),
    save: fromPromise<unknown, unknown>(({ input }) => withServerDetail(save(input as SaveNameRequest))),
    act: fromPromise<unknown, Draft>(({ input }) => {
      const deletion = input as Deletion;
      return withServerDetail(
        deletion.kind === 'department' ? api.deleteDepartment(deletion.departmentId) : api.deleteUnit(deletion.departmentId, deletion.unitId),
      );
    }),
  };
}
