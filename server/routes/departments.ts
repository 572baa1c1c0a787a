import type { FastifyInstance } from 'fastify';
import { paths } from '../../contract/api-paths';
import { departmentList, departmentListQuery } from '../../contract/departments';
import type { AppContext } from '../context';
import { currentUser, type AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { parseInput } from '../http/validate';
import { listClientDepartments } from '../services/departments';

export async function departmentRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  app.get(paths.departments, { preHandler: guards.requireAuth }, async (request) => {
    const query = parseInput(departmentListQuery, request.query);
    const user = currentUser(request);
    // The superuser belongs to no organisation, so has no departments of its own.
    const list = user.client_id
      ? await listClientDepartments(ctx.db, user.client_id, {
          page: query.page,
          pageSize: query.page_size,
          search: query.search,
          paginate: query.paginate,
        })
      : { departments: [], page: 1, page_size: query.page_size, total: 0, total_pages: query.paginate ? 0 : 1 };
    return ok(departmentList, list);
  });
}
