import type { Kysely } from 'kysely';
import type { DepartmentReport, DepartmentReportFilter, UserReport, UserReportFilter } from '../../../contract/usage-reports';
import { DEPARTMENT_REPORT_COLUMNS, DEPARTMENT_REPORT_HEADERS, NOT_AVAILABLE, USER_REPORT_COLUMNS, USER_REPORT_HEADERS } from '../../../contract/usage-reports-constants';
import { megabytes, reportFileName } from '../../../shared/report-files';
import type { Database } from '../../db/database';
import {
  countDepartmentGroups,
  countUserGroups,
  departmentReportPage,
  userReportPage,
  type RowWindow,
  type UsageFilter,
} from '../../db/repositories/usage-reports';
import { organisationIn, type Scope } from '../scope';
import { pageWindow, totalPages } from '../paging';
import { periodRanges } from './usage-period';

type ReportFilter = DepartmentReportFilter | UserReportFilter;

/** Rows read per query while exporting: memory stays bounded however large the organisation. */
export const EXPORT_PAGE_ROWS = 1000;

/** The caller's own organisation, always: ids of another organisation's departments or units simply match nothing. */
function usageFilter(scope: Scope, filter: ReportFilter): UsageFilter {
  return {
    clientId: organisationIn(scope),
    ranges: periodRanges(filter.year, filter.months),
    departmentIds: filter.department_ids,
    unitIds: filter.unit_ids,
  };
}

function pageOf(filter: ReportFilter, total: number) {
  return { total, page: filter.page, limit: filter.limit, pages: totalPages(total, filter.limit) };
}

export async function departmentReport(db: Kysely<Database>, scope: Scope, filter: DepartmentReportFilter): Promise<DepartmentReport> {
  const usage = usageFilter(scope, filter);
  const { rows, total } = await departmentReportPage(db, usage, { by: filter.sort_by, order: filter.sort_order }, pageWindow(filter.page, filter.limit));
  // A page past the end has no row to carry the total: count the groups on their own.
  return { items: rows, ...pageOf(filter, total ?? (await countDepartmentGroups(db, usage))) };
}

export async function userReport(db: Kysely<Database>, scope: Scope, filter: UserReportFilter): Promise<UserReport> {
  const usage = usageFilter(scope, filter);
  const { rows, total } = await userReportPage(db, usage, { by: filter.sort_by, order: filter.sort_order }, pageWindow(filter.page, filter.limit));
  return { users: rows, ...pageOf(filter, total ?? (await countUserGroups(db, usage))) };
}

/** A CSV download: its file name, header row and an async sequence of data rows read a page at a time. */
export interface CsvExport {
  fileName: string;
  header: string[];
  rows: AsyncIterable<(string | number)[]>;
}

/**
 * Every row of a report, read in pages (same filter and sort) so no more than one page is held at once. The first
 * page is read before anything is sent, so a failing query still answers a plain error rather than a cut-off file.
 */
async function everyRow<T>(readPage: (window: RowWindow) => Promise<{ rows: T[] }>): Promise<AsyncIterable<T>> {
  const first = await readPage({ limit: EXPORT_PAGE_ROWS, offset: 0 });
  return (async function* () {
    let rows = first.rows;
    for (let offset = 0; ; ) {
      yield* rows;
      if (rows.length < EXPORT_PAGE_ROWS) return;
      offset += EXPORT_PAGE_ROWS;
      rows = (await readPage({ limit: EXPORT_PAGE_ROWS, offset })).rows;
    }
  })();
}

async function* mapRows<T, R>(rows: AsyncIterable<T>, toCsv: (row: T) => R): AsyncGenerator<R> {
  for await (const row of rows) yield toCsv(row);
}

const orNa = (name: string | null) => name ?? NOT_AVAILABLE;

export async function departmentReportCsv(db: Kysely<Database>, scope: Scope, filter: DepartmentReportFilter): Promise<CsvExport> {
  const usage = usageFilter(scope, filter);
  const sort = { by: filter.sort_by, order: filter.sort_order } as const;
  const rows = await everyRow((w) => departmentReportPage(db, usage, sort, w));
  return {
    fileName: reportFileName('department', filter.year, filter.months),
    header: DEPARTMENT_REPORT_COLUMNS.map((c) => DEPARTMENT_REPORT_HEADERS[c]),
    rows: mapRows(rows, (r) => [orNa(r.department_name), orNa(r.unit_name), r.query_count, r.file_count, megabytes(r.attachments_size)]),
  };
}

export async function userReportCsv(db: Kysely<Database>, scope: Scope, filter: UserReportFilter): Promise<CsvExport> {
  const usage = usageFilter(scope, filter);
  const sort = { by: filter.sort_by, order: filter.sort_order } as const;
  const rows = await everyRow((w) => userReportPage(db, usage, sort, w));
  return {
    fileName: reportFileName('user', filter.year, filter.months),
    header: USER_REPORT_COLUMNS.map((c) => USER_REPORT_HEADERS[c]),
    rows: mapRows(rows, (r) => [
      r.user_name,
      r.user_email,
      orNa(r.department_name),
      orNa(r.unit_name),
      r.query_count,
      r.files_count,
      r.total_tokens,
      megabytes(r.attachments_size),
    ]),
  };
}
