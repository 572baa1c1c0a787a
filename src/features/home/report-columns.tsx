import type { ReactNode } from 'react';
import { DEPARTMENT_REPORT_COLUMNS, DEPARTMENT_REPORT_HEADERS, NOT_AVAILABLE, USER_REPORT_COLUMNS, USER_REPORT_HEADERS, type ReportType } from '../../../contract/usage-reports-constants';
import { megabytes } from '../../../shared/report-files';
import type { DepartmentReportRow, UserReportRow } from './usage-actors';

/** One column of a report table: its sort key (the API's `sort_by`), header, cell and alignment. */
export interface ReportColumn {
  key: string;
  label: string;
  numeric: boolean;
  cell(row: Record<string, unknown>): ReactNode;
}

const orNA = (v: unknown) => (v === null || v === undefined || v === '' ? NOT_AVAILABLE : String(v));
const NUMBERS = new Set(['query_count', 'file_count', 'files_count', 'total_tokens', 'attachments_size']);

function column<K extends string>(key: K, label: string, cell?: (row: Record<string, unknown>) => ReactNode): ReportColumn {
  const numeric = NUMBERS.has(key);
  return {
    key,
    label,
    numeric,
    cell: cell ?? ((row) => (key === 'attachments_size' ? megabytes(Number(row[key] ?? 0)) : numeric ? Number(row[key] ?? 0) : orNA(row[key]))),
  };
}

/** Spec section 2: department, unit, queries, files, size in MB / user name and e-mail, department, unit, ... */
export const REPORT_COLUMNS: Record<ReportType, ReportColumn[]> = {
  department: DEPARTMENT_REPORT_COLUMNS.map((k) => column(k, DEPARTMENT_REPORT_HEADERS[k])),
  user: USER_REPORT_COLUMNS.map((k) => column(k, USER_REPORT_HEADERS[k])),
};

export type ReportRow = DepartmentReportRow | UserReportRow;
