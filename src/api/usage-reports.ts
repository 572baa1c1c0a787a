import { paths } from '../../contract/api-paths';
import type { Dashboard, DepartmentReport, UserReport } from '../../contract/usage-reports';
import { REPORT_FALLBACK_FILE, type ReportType } from '../../contract/usage-reports-constants';
import { fileNameFrom } from '../lib/file-download';
import { api } from './http';

/** The organisation's stored dashboard (computed by the server when it has none or it is 5 minutes old). */
export async function fetchLatestDashboard(signal?: AbortSignal): Promise<Dashboard> {
  return (await api.get<Dashboard>(paths.dashboardLatest, { signal })).data;
}

/** Computes the dashboard now (and stores it as the latest). */
export async function generateDashboard(signal?: AbortSignal): Promise<Dashboard> {
  return (await api.post<Dashboard>(paths.dashboardGenerate, undefined, { signal })).data;
}

/** What both reports are filtered, sorted and paged by (spec section 3 "Report filter"). */
export interface ReportQuery {
  departmentIds: string[];
  unitIds: string[];
  year: number;
  months: number[];
  sortBy: string;
  sortOrder: 'asc' | 'desc';
  page?: number;
  limit?: number;
}

const REPORT_PATH: Record<ReportType, string> = { department: paths.departmentReport, user: paths.userReport };

/** Spec section 7: empty values dropped, lists joined with commas. */
function queryOf(q: ReportQuery): Record<string, string | number | undefined> {
  const list = <T,>(values: T[]) => (values.length ? values.join(',') : undefined);
  return {
    department_ids: list(q.departmentIds),
    unit_ids: list(q.unitIds),
    year: q.year,
    months: list(q.months),
    page: q.page,
    limit: q.limit,
    sort_by: q.sortBy,
    sort_order: q.sortOrder,
  };
}

export async function fetchDepartmentReport(q: ReportQuery, signal?: AbortSignal): Promise<DepartmentReport> {
  return (await api.get<DepartmentReport>(REPORT_PATH.department, { query: queryOf(q), signal })).data;
}

export async function fetchUserReport(q: ReportQuery, signal?: AbortSignal): Promise<UserReport> {
  return (await api.get<UserReport>(REPORT_PATH.user, { query: queryOf(q), signal })).data;
}

/** The whole report as CSV (`export=true`: every row, same filters and sort), named as the server names it. */
export async function exportReport(type: ReportType, q: ReportQuery): Promise<{ blob: Blob; fileName: string }> {
  const { page: _page, limit: _limit, ...rest } = q;
  const response = await api.download(REPORT_PATH[type], { query: { ...queryOf(rest), export: 'true' } });
  return { blob: await response.blob(), fileName: fileNameFrom(response.headers.get('content-disposition'), REPORT_FALLBACK_FILE[type]) };
}
