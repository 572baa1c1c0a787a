import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import {
  department,
  departmentDeletion,
  departmentList,
  departmentListQuery,
  departmentRequest,
  unit,
  unitParams,
  unitRequest,
} from '../../contract/departments';
import {
  DEPARTMENT_CREATED,
  DEPARTMENT_DELETED,
  DEPARTMENT_UPDATED,
  UNIT_CREATED,
  UNIT_DELETED,
  UNIT_UPDATED,
  OTHER_ORGANISATION_DEPARTMENTS,
} from '../../contract/departments-constants';
import { successEnvelope } from '../../contract/envelope';
import { idParams } from '../../contract/fields';
import type { AppContext } from '../context';
import { currentScope, type AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import {
  addUnit,
  createDepartment,
  deleteDepartment,
  deleteUnit,
  listDepartmentsIn,
  renameDepartment,
  renameUnit,
} from '../services/organisation/departments';

const UNASSIGNS = 'Its people lose their department and unit (they are sent to Profile again); `unassigned_users` says how many.';

export async function departmentRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const adminOnly = guards.requireRole('admin');
  const tags = ['departments'];

  api.get(
    paths.departments,
    {
      onRequest: guards.requireAuth,
      config: { clientIdQuery: OTHER_ORGANISATION_DEPARTMENTS },
      schema: {
        summary: "An organisation's departments, each with its units",
        description:
          '`paginate=false` returns all of them on one page (the Profile selects). Staff and admins read their own ' +
          "organisation's (`client_id` naming another is 403); the superuser reads the organisation `client_id` names " +
          "(404 when there is none), or every organisation's when it is absent.",
        tags,
        querystring: departmentListQuery,
        response: { 200: successEnvelope(departmentList), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const { page, page_size, search, paginate } = request.query;
      return ok(await listDepartmentsIn(ctx.db, currentScope(request), { page, pageSize: page_size, search, paginate }));
    },
  );

  api.post(
    paths.departments,
    {
      onRequest: adminOnly,
      schema: {
        summary: 'Add a department to my organisation',
        description: 'Admins only. The name is unique within the organisation, case-insensitively (else 409).',
        tags,
        body: departmentRequest,
        response: { 200: successEnvelope(department), ...errorResponses(400, 409) },
      },
    },
    async (request) => ok(await createDepartment(ctx.db, currentScope(request), request.body.name), DEPARTMENT_CREATED),
  );

  api.put(
    paths.department,
    {
      onRequest: adminOnly,
      schema: {
        summary: 'Rename a department of my organisation',
        description: 'Admins only. The name is unique within the organisation, case-insensitively (else 409).',
        tags,
        params: idParams,
        body: departmentRequest,
        response: { 200: successEnvelope(department), ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => ok(await renameDepartment(ctx.db, currentScope(request), request.params.id, request.body.name), DEPARTMENT_UPDATED),
  );

  api.delete(
    paths.department,
    {
      onRequest: adminOnly,
      schema: {
        summary: 'Delete a department of my organisation, with its units',
        description: `Admins only. ${UNASSIGNS}`,
        tags,
        params: idParams,
        response: { 200: successEnvelope(departmentDeletion), ...errorResponses(404) },
      },
    },
    async (request) => {
      const unassigned = await deleteDepartment(ctx.db, currentScope(request), request.params.id);
      return ok({ message: DEPARTMENT_DELETED, unassigned_users: unassigned }, DEPARTMENT_DELETED);
    },
  );

  api.post(
    paths.departmentUnits,
    {
      onRequest: adminOnly,
      schema: {
        summary: 'Add a unit to a department of my organisation',
        description: 'Admins only. The name is unique within the department, case-insensitively (else 409).',
        tags,
        params: idParams,
        body: unitRequest,
        response: { 200: successEnvelope(unit), ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => ok(await addUnit(ctx.db, currentScope(request), request.params.id, request.body.name), UNIT_CREATED),
  );

  api.put(
    paths.departmentUnit,
    {
      onRequest: adminOnly,
      schema: {
        summary: 'Rename a unit of a department of my organisation',
        description: 'Admins only. The name is unique within the department, case-insensitively (else 409).',
        tags,
        params: unitParams,
        body: unitRequest,
        response: { 200: successEnvelope(unit), ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => {
      const { id, unitId } = request.params;
      return ok(await renameUnit(ctx.db, currentScope(request), id, unitId, request.body.name), UNIT_UPDATED);
    },
  );

  api.delete(
    paths.departmentUnit,
    {
      onRequest: adminOnly,
      schema: {
        summary: 'Delete a unit of a department of my organisation',
        description: `Admins only. ${UNASSIGNS}`,
        tags,
        params: unitParams,
        response: { 200: successEnvelope(departmentDeletion), ...errorResponses(404) },
      },
    },
    async (request) => {
      const unassigned = await deleteUnit(ctx.db, currentScope(request), request.params.id, request.params.unitId);
      return ok({ message: UNIT_DELETED, unassigned_users: unassigned }, UNIT_DELETED);
    },
  );
}
