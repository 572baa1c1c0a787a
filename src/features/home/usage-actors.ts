import { fromPromise } from 'xstate';
import type { Department } from '../../../contract/departments';
import type { DepartmentReport, UserReport } from '../../../contract/usage-reports';
import { pagerMachine, type PageRequest, type PageResult } from '../../../machines/pager.machine';
import { usageDashboardMachine } from '../../../machines/usage-dashboard.machine';
import { ALL_MONTHS, usageReportsMachine, type AppliedReport, type ReportExportRequest } from '../../../machines/usage-reports.machine';
import { listAllDepartments } from '../../api/departments';
import { exportReport, fetchDepartmentReport, fetchLatestDashboard, fetchUserReport, generateDashboard, type ReportQuery } from '../../api/usage-reports';
import { saveBlob } from '../../lib/file-download';

/** A department report row with the id every pager row has: its (department, unit) pair is unique. */
export type DepartmentReportRow = DepartmentReport['items'][number] & { id: string };
export type UserReportRow = UserReport['users'][number] & { id: string };

/** The Usage Summary tab's machine with its calls. */
export const usageSummaryMachine = usageDashboardMachine.provide({
  actors: {
    fetchLatest: fromPromise(({ signal }) => fetchLatestDashboard(signal)),
    generate: fromPromise(({ signal }) => generateDashboard(signal)),
  },
});

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

async function fetchReportPage({ page, pageSize, filters, sort }: PageRequest, signal: AbortSignal): Promise<PageResult> {
  const applied = filters as unknown as AppliedReport;
  const q = { ...queryOf(applied, sort), page, limit: pageSize };
  if (applied.reportType === 'department') {
    const r = await fetchDepartmentReport(q, signal);
    const items: DepartmentReportRow[] = r.items.map((i) => ({ ...i, id: `${i.department_id ?? '-'}/${i.unit_id ?? '-'}` }));
    return { items, page: r.page, total: r.total, totalPages: r.pages };
  }
  const r = await fetchUserReport(q, signal);
  const items: UserReportRow[] = r.users.map((u) => ({ ...u, id: u.user_id }));
  return { items, page: r.page, total: r.total, totalPages: r.pages };
}

/** The Reports tab's machine with its calls. */
export const reportsTabMachine = usageReportsMachine.provide({
  actors: {
    list: pagerMachine.provide({
      actors: { fetchPage: fromPromise<PageResult, PageRequest>(({ input, signal }) => fetchReportPage(input, signal)) },
    }),
    fetchDepartments: fromPromise<Department[], void>(() => listAllDepartments()),
    exportReport: fromPromise<unknown, ReportExportRequest>(async ({ input }) => {
      const { blob, fileName } = await exportReport(input.reportType, queryOf(input, input.sort));
      saveBlob(blob, fileName);
      return fileName;
    }),
  },
});
