import { z } from 'zod';
import { fairUse } from './fair-use';
import { choiceField, pageField, PAGE_SIZE_MAX, wholeNumberQuery } from './fields';
import {
  DEPARTMENT_REPORT_COLUMNS,
  REPORT_DEFAULT_SORT,
  REPORT_IDS_INVALID,
  REPORT_LIMIT_INVALID,
  REPORT_MONTHS_INVALID,
  REPORT_PAGE_SIZE,
  REPORT_YEAR_INVALID,
  REPORT_YEAR_MAX,
  REPORT_YEAR_MIN,
  SORT_ORDERS,
  USER_REPORT_COLUMNS,
} from './usage-reports-constants';

// A "query" is one usage_logs row with purpose 'reply' (one model answer; titles do not count). Months are UTC
// calendar months.

/** GET /usage-logs/dashboard/latest and POST /usage-logs/dashboard/generate. */
export const dashboard = z.object({
  /** Exactly 12 entries, oldest first, the current month last, zero-filled: distinct people with a query that month. */
  user_month: z.array(z.object({ month: z.string().describe('YYYY-MM'), count: z.number().int().min(0) })),
  /** At most 3 single-key objects, department name -> queries this month, biggest first (no department: not counted). */
  top3_dept: z.array(z.record(z.string(), z.number().int().min(0))),
  /** At most 5 people by queries this month, biggest first, ties by name. */
  top5_user: z.array(
    z.object({
      name: z.string(),
      department_name: z.string().nullable(),
      unit_name: z.string().nullable(),
      query_count: z.number().int().min(0),
    }),
  ),
  generated_at: z.string().describe('ISO-8601 UTC'),
  /**
   * The share of this month's fair use spent, as of the answer (not of generated_at); null without a current
   * subscription. Always sent by the server (optional only for dashboards made before it existed).
   */
  fair_use: fairUse.nullable().optional(),
});
export type Dashboard = z.infer<typeof dashboard>;

/** `?department_ids=a,b`: comma-joined ids; empty pieces dropped, an empty value filters nothing. */
const idListQuery = (field: 'department_ids' | 'unit_ids') =>
  z
    .string({ error: REPORT_IDS_INVALID(field) })
    .max(10_000, { error: REPORT_IDS_INVALID(field) })
    .transform((text) => [...new Set(text.split(',').map((id) => id.trim()).filter(Boolean))])
    .optional()
    .describe('Comma-joined ids; matches the department or unit recorded on each usage row.');

/** `?months=1,3`: comma-joined months 1..12, deduplicated and sorted; absent or empty means all twelve. */
const monthsQuery = z
  .string({ error: REPORT_MONTHS_INVALID })
  .max(100, { error: REPORT_MONTHS_INVALID })
  .transform((text, ctx) => {
    const pieces = text.split(',').map((piece) => piece.trim()).filter(Boolean);
    const months = pieces.map(Number);
    if (!months.every((m) => Number.isInteger(m) && m >= 1 && m <= 12) || pieces.some((p) => !/^\d+$/.test(p))) {
      ctx.addIssue({ code: 'custom', message: REPORT_MONTHS_INVALID });
      return z.NEVER;
    }
    return [...new Set(months)].sort((a, b) => a - b);
  })
  .optional()
  .describe('Comma-joined months 1 to 12; all twelve when absent.');

/** Fields shared by both reports' query strings. */
const reportFilterFields = {
  department_ids: idListQuery('department_ids'),
  unit_ids: idListQuery('unit_ids'),
  year: wholeNumberQuery(REPORT_YEAR_INVALID, REPORT_YEAR_MIN, REPORT_YEAR_MAX)
    .default(() => new Date().getUTCFullYear())
    .describe('The current UTC year when absent.'),
  months: monthsQuery,
  page: pageField(),
  limit: wholeNumberQuery(REPORT_LIMIT_INVALID, 1, PAGE_SIZE_MAX).default(REPORT_PAGE_SIZE),
  sort_order: choiceField('sort_order', SORT_ORDERS).default('desc'),
  export: choiceField('export', ['true', 'false'])
    .optional()
    .transform((v) => v === 'true')
    .describe('true: the whole result (same filter and sort, no paging) as a CSV download.'),
};

/** GET /usage-logs/admin/client/report query string. */
export const departmentReportQuery = z.object({
  ...reportFilterFields,
  sort_by: choiceField('sort_by', DEPARTMENT_REPORT_COLUMNS).default(REPORT_DEFAULT_SORT),
});
export type DepartmentReportQuery = z.input<typeof departmentReportQuery>;
export type DepartmentReportFilter = z.output<typeof departmentReportQuery>;

/** GET /usage-logs/admin/user/report query string. */
export const userReportQuery = z.object({
  ...reportFilterFields,
  sort_by: choiceField('sort_by', USER_REPORT_COLUMNS).default(REPORT_DEFAULT_SORT),
});
export type UserReportQuery = z.input<typeof userReportQuery>;
export type UserReportFilter = z.output<typeof userReportQuery>;

/** The filter as the SPA sends it, for either report (sort_by is one of that report's columns). */
export const reportFilterQuery = z.object({
  ...reportFilterFields,
  sort_by: choiceField('sort_by', [...new Set([...DEPARTMENT_REPORT_COLUMNS, ...USER_REPORT_COLUMNS])] as [string, ...string[]]).default(
    REPORT_DEFAULT_SORT,
  ),
});
export type ReportFilterQuery = z.input<typeof reportFilterQuery>;

const reportPageFields = {
  total: z.number().int().min(0),
  page: z.number().int().min(1),
  limit: z.number().int().min(1),
  pages: z.number().int().min(0),
};

export const departmentReportRow = z.object({
  department_id: z.string().nullable(),
  department_name: z.string().nullable(),
  unit_id: z.string().nullable(),
  unit_name: z.string().nullable(),
  query_count: z.number().int().min(0),
  file_count: z.number().int().min(0),
  attachments_size: z.number().min(0).describe('bytes'),
});
export type DepartmentReportRow = z.infer<typeof departmentReportRow>;

/** One row per (department, unit) pair that had queries in the period. */
export const departmentReport = z.object({ items: z.array(departmentReportRow), ...reportPageFields });
export type DepartmentReport = z.infer<typeof departmentReport>;

export const userReportRow = z.object({
  user_id: z.string(),
  user_name: z.string(),
  user_email: z.string(),
  department_name: z.string().nullable(),
  unit_name: z.string().nullable(),
  query_count: z.number().int().min(0),
  files_count: z.number().int().min(0),
  total_tokens: z.number().int().min(0).describe('prompt + completion of every model call in the period, titles included'),
  attachments_size: z.number().min(0).describe('bytes'),
});
export type UserReportRow = z.infer<typeof userReportRow>;

/** One row per person with queries in the period; department and unit are the person's current ones. */
export const userReport = z.object({ users: z.array(userReportRow), ...reportPageFields });
export type UserReport = z.infer<typeof userReport>;
