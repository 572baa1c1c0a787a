import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { successEnvelope } from '../../contract/envelope';
import { dashboard, departmentReport, departmentReportQuery, userReport, userReportQuery } from '../../contract/usage-reports';
import { DASHBOARD_GENERATED } from '../../contract/usage-reports-constants';
import type { AppContext } from '../context';
import { currentScope, type AuthGuards } from '../http/auth';
import { csvContent, sendCsv } from '../http/csv-download';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { generateDashboard, latestDashboard } from '../services/organisation/usage-dashboard';
import { departmentReport as readDepartmentReport, departmentReportCsv, userReportCsv, userReport as readUserReport } from '../services/organisation/usage-reports';

const QUERY_MEANING = "A query is one model answer (titles do not count); months are UTC calendar months. Always the caller's own organisation.";
const FILTER_MEANING =
  'Filters match the department and unit recorded on each usage row. `export=true` answers the whole result ' +
  '(same filter and sort, no paging) as a CSV attachment instead.';

/** A report's 200: the JSON page, or the CSV download with export=true. */
const reportResponse = <T extends Parameters<typeof successEnvelope>[0]>(page: T) => ({
  description: 'The page of the report as JSON; with `export=true` the whole report as text/csv.',
  content: { 'application/json': { schema: successEnvelope(page) }, ...csvContent },
});

export async function usageReportRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const adminOnly = guards.requireRole('admin');
  const tags = ['usage'];

  api.post(
    paths.dashboardGenerate,
    {
      onRequest: adminOnly,
      schema: {
        summary: "Compute my organisation's usage dashboard now",
        description: `Admins only. Stores it as the latest dashboard and answers it. ${QUERY_MEANING}`,
        tags,
        response: { 200: successEnvelope(dashboard), ...errorResponses(403) },
      },
    },
    async (request) => ok(await generateDashboard(ctx.db, ctx.fairUse, currentScope(request)), DASHBOARD_GENERATED),
  );

  api.get(
    paths.dashboardLatest,
    {
      onRequest: adminOnly,
      schema: {
        summary: "My organisation's latest usage dashboard",
        description: `Admins only. Computed again when there is none or it is older than 5 minutes. ${QUERY_MEANING}`,
        tags,
        response: { 200: successEnvelope(dashboard), ...errorResponses(403) },
      },
    },
    async (request) => ok(await latestDashboard(ctx.db, ctx.fairUse, currentScope(request))),
  );

  api.get(
    paths.departmentReport,
    {
      onRequest: adminOnly,
      schema: {
        summary: 'Usage by department and unit',
        description: `Admins only. One row per (department, unit) pair with queries in the period. ${FILTER_MEANING} ${QUERY_MEANING}`,
        tags,
        querystring: departmentReportQuery,
        response: { 200: reportResponse(departmentReport), ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      const scope = currentScope(request);
      if (request.query.export) {
        const csv = await departmentReportCsv(ctx.db, scope, request.query);
        return sendCsv(reply, csv.fileName, csv.header, csv.rows);
      }
      return ok(await readDepartmentReport(ctx.db, scope, request.query));
    },
  );

  api.get(
    paths.userReport,
    {
      onRequest: adminOnly,
      schema: {
        summary: 'Usage by person',
        description:
          'Admins only. One row per person with queries in the period, with their current department and unit; ' +
          `tokens count every model call of the person, titles included. ${FILTER_MEANING} ${QUERY_MEANING}`,
        tags,
        querystring: userReportQuery,
        response: { 200: reportResponse(userReport), ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      const scope = currentScope(request);
      if (request.query.export) {
        const csv = await userReportCsv(ctx.db, scope, request.query);
        return sendCsv(reply, csv.fileName, csv.header, csv.rows);
      }
      return ok(await readUserReport(ctx.db, scope, request.query));
    },
  );
}
