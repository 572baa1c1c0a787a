import { fromPromise } from 'xstate';
import { departmentsAdminMachine, type Deletion, type SaveNameRequest } from '../../../machines/departments-admin.machine';
import { pagerMachine, type PageRequest, type PageResult } from '../../../machines/pager.machine';
import { addUnit, createDepartment, deleteDepartment, deleteUnit, fetchDepartmentPage, renameDepartment } from '../../api/departments';
import { withServerDetail } from '../../lib/load-failure';


function save(request: SaveNameRequest): Promise<unknown> {
  if (request.kind === 'createDepartment') return createDepartment(request.name);
  if (request.kind === 'renameDepartment') return renameDepartment(request.departmentId, request.name);
  return addUnit(request.departmentId, request.name);
}

/** The Departments page's machine with its calls. */
export const departmentsPageMachine = departmentsAdminMachine.provide({
  actors: {
    list: pagerMachine.provide({
      actors: {
        fetchPage: fromPromise<PageResult, PageRequest>(async ({ input, signal }) => {
          const list = await fetchDepartmentPage({ page: input.page, pageSize: input.pageSize, search: input.query }, signal);
          return { items: list.departments, page: list.page, total: list.total, totalPages: list.total_pages };
        }),
      },
    }),
    save: fromPromise<unknown, SaveNameRequest>(({ input }) => withServerDetail(save(input))),
    remove: fromPromise<unknown, Deletion>(({ input }) =>
      withServerDetail(input.kind === 'department' ? deleteDepartment(input.departmentId) : deleteUnit(input.departmentId, input.unitId)),
    ),
  },
});
