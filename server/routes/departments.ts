import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { departmentList, departmentListQuery } from '../../contract/departments';
import { successEnvelope } from '../../contract/envelope';
import type { AppContext } from '../context';
import { currentUser, type AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { listOwnDepartments } from '../services/departments';

export async function departmentRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    paths.departments,
    {
      onRequest: guards.requireAuth,
      schema: {
        summary: "My organisation's departments, each with its units",
        description: '`paginate=false` returns all of them on one page (the Profile selects).',
        tags: ['departments'],
        querystring: departmentListQuery,
        response: { 200: successEnvelope(departmentList), ...errorResponses(400) },
      },
    },
    async (request) => {
      const { page, page_size, search, paginate } = request.query;
      return ok(await listOwnDepartments(ctx.db, currentUser(request), { page, pageSize: page_size, search, paginate }));
    },
  );
}
