import { fromPromise } from 'xstate';
import type { Department } from '../../../contract/departments';
import type { Dashboard, DepartmentReport, UserReport } from '../../../contract/usage-reports';
import { pagerMachine, type PageRequest, type PageResult } from '../../../machines/pager.machine';
import { ALL_MONTHS, type AppliedReport, type ReportExportRequest } from '../../../machines/usage-reports.machine';
import type { listAllDepartments } from '../../api/departments';
import type { ReportQuery, exportReport, fetchDepartmentReport, fetchLatestDashboard, fetchUserReport, generateDashboard } from '../../api/usage-reports';
import type { saveBlob } from '../../lib/file-download';

/** A department report row with the id every pager row has: its (department, unit) pair is unique. */
export type DepartmentReportRow = DepartmentReport['items'][number] & { id: string };
export type UserReportRow = UserReport['users'][number] & { id: string };

/** The API functions the Usage Summary tab calls (src/api/usage-reports.ts; tests pass fakes). */
export interface UsageSummaryApi {
  fetchLatestDashboard: typeof fetchLatestDashboard;
  generateDashboard: typeof generateDashboard;
}

/** The API functions the Reports tab calls, and the browser's save of the exported file (tests pass fakes). */
export interface ReportsApi {
  fetchDepartmentReport: typeof fetchDepartmentReport;
  fetchUserReport: typeof fetchUserReport;
  listAllDepartments: typeof listAllDepartments;
  exportReport: typeof exportReport;
  saveBlob: typeof saveBlob;
}

/** The Usage Summary tab's calls: `usageDashboardMachine.provide({ actors: defineUsageSummaryActors({ api }) })`. */
export function defineUsageSummaryActors({ api }: { api: UsageSummaryApi }) {
  return {
    fetchLatest: fromPromise<Dashboard, void>(({ signal }) => api.fetchLatestDashboard(signal)),
    generate: fromPromise<Dashboard, void>(({ signal }) => api.generateDashboard(signal)),
  };
}

function queryOf(applied: AppliedReport, sort: PageRequest['sort']): ReportQuery {
  return {
    departmentIds: applied.departmentIds,
    unitIds: applied.unitIds,
    year: applied.year,
    // Every month chosen is the server's default: left out, so the export's file name carries no month list.
    months: applied.months.length === ALL_MONTHS.length ? [] : applied.months,
    sortBy: sort?.column ?? 'query_count',
    sortOrder: sort?.direction ?? 'desc',
  };
}

async function fetchReportPage(api: ReportsApi, { page, pageSize, filters, sort }: PageRequest, signal: AbortSignal): Promise<PageResult> {
  const applied = filters as unknown as AppliedReport;
  const q = { ...queryOf(applied, sort), page, limit: pageSize };
  if (applied.reportType === 'department') {
    const r = await api.fetchDepartmentReport(q, signal);
    const items: DepartmentReportRow[] = r.items.map((i) => ({ ...i, id: `${i.department_id ?? '-'}/${i.unit_id ?? '-'}` }));
    return { items, page: r.page, total: r.total, totalPages: r.pages };
  }
  const r = await api.fetchUserReport(q, signal);
  const items: UserReportRow[] = r.users.map((u) => ({ ...u, id: u.user_id }));
  return { items, page: r.page, total: r.total, totalPages: r.pages };
}

/** The Reports tab's calls: `usageReportsMachine.provide({ actors: defineReportsActors({ api }) })`. */
export function defineReportsActors({ api }: { api: ReportsApi }) {
  return {
    list: pagerMachine.provide({
      actors: { fetchPage: fromPromise<PageResult, PageRequest>(({ input, signal }) => fetchReportPage(api, input, signal)) },
    }),
    fetchDepartments: fromPromise<Department[], void>(() => api.listAllDepartments()),
    exportReport: fromPromise<unknown, ReportExportRequest>(async ({ input }) => {
      const { blob, fileName } = await api.exportReport(input.reportType, queryOf(input, input.sort));
      api.saveBlob(blob, fileName);
      return fileName;
    }),
  };
}
