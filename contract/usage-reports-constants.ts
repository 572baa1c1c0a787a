// Spec texts and numbers of the admin usage dashboard and reports (administration spec sections 2, 3, 8 and 9),
// free of zod: the SPA and the server read the same ones.

/** The dashboard is regenerated when the stored snapshot is older than this; the SPA auto-refreshes as often. */
export const DASHBOARD_REFRESH_MS = 300_000;
/** How many months the 'Monthly User Activity' chart shows, the current month last. */
export const DASHBOARD_MONTHS = 12;
export const DASHBOARD_TOP_DEPARTMENTS = 3;
export const DASHBOARD_TOP_USERS = 5;

/** Report page size by default (the filter's `limit`). */
export const REPORT_PAGE_SIZE = 10;
/** Year options: the current year and the 4 before. */
export const REPORT_YEARS = 5;
/** The years a report filter accepts at all. */
export const REPORT_YEAR_MIN = 2000;
export const REPORT_YEAR_MAX = 2100;

export const REPORT_TYPES = ['department', 'user'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** Sortable columns of each report (the `sort_by` values), in the order the tables show them. */
export const DEPARTMENT_REPORT_COLUMNS = ['department_name', 'unit_name', 'query_count', 'file_count', 'attachments_size'] as const;
export type DepartmentReportColumn = (typeof DEPARTMENT_REPORT_COLUMNS)[number];
export const USER_REPORT_COLUMNS = [
  'user_name',
  'user_email',
  'department_name',
  'unit_name',
  'query_count',
  'files_count',
  'total_tokens',
  'attachments_size',
] as const;
export type UserReportColumn = (typeof USER_REPORT_COLUMNS)[number];
export const REPORT_DEFAULT_SORT = 'query_count';
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** Human column names: the CSV header rows (also fit for the tables' headers). */
export const DEPARTMENT_REPORT_HEADERS: Record<DepartmentReportColumn, string> = {
  department_name: 'Department',
  unit_name: 'Unit',
  query_count: 'Queries',
  file_count: 'Files',
  attachments_size: 'Size (MB)',
};
export const USER_REPORT_HEADERS: Record<UserReportColumn, string> = {
  user_name: 'User',
  user_email: 'Email',
  department_name: 'Department',
  unit_name: 'Unit',
  query_count: 'Queries',
  files_count: 'Files',
  total_tokens: 'Tokens',
  attachments_size: 'Size (MB)',
};
/** What a missing department or unit reads as (the Top 5 table and the CSV exports). */
export const NOT_AVAILABLE = 'N/A';

/** Used when a download's content-disposition header names no file. */
export const REPORT_FALLBACK_FILE: Record<ReportType, string> = { department: 'department-report.csv', user: 'user-report.csv' };

export const REPORT_TYPE_LABELS: Record<ReportType, string> = { department: 'Report by Department', user: 'Report by Users' };

/** Administration spec section 8. */
export const DASHBOARD_GENERATE_FAILED = 'Failed to generate dashboard data';
export const DASHBOARD_FETCH_FAILED = 'Failed to fetch dashboard data';
export const REPORT_FETCH_FAILED = (type: ReportType) => `Failed to fetch ${type} report`;
export const REPORT_EXPORT_FAILED = (type: ReportType) => `Failed to export ${type} report`;
export const REPORT_EXPORTED: Record<ReportType, string> = {
  department: 'Department report exported successfully',
  user: 'User report exported successfully',
};

/** Administration spec section 2: the dashboard's and the reports' empty states. */
export const NO_MONTHLY_USER_DATA = 'No monthly user data available';
export const NO_DEPARTMENT_DATA = 'No department data available';
export const NO_DASHBOARD_DATA = 'No dashboard data available.';
export const NO_REPORT_DATA = 'No report data';
export const APPLY_FILTERS_HINT = 'Apply filters above to generate a report.';

/** Server answers (success envelope messages and the validation sentences of the report filter). */
export const DASHBOARD_GENERATED = 'Dashboard data generated';
export const REPORT_IDS_INVALID = (field: 'department_ids' | 'unit_ids') => `${field} must be comma-separated ids`;
export const REPORT_YEAR_INVALID = `year must be a whole number from ${REPORT_YEAR_MIN} to ${REPORT_YEAR_MAX}`;
export const REPORT_MONTHS_INVALID = 'months must be comma-separated whole numbers from 1 to 12';
export const REPORT_LIMIT_INVALID = 'limit must be a whole number from 1 to 100';
