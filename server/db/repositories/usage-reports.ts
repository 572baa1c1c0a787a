import { sql, type Expression, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Database, UsageLogsTable } from '../database';

// The admin reports: every figure is aggregated by the database (GROUP BY over the period's usage rows, which the
// covering index usage_logs_report_idx serves), and only one page of groups ever reaches the process.

/** Half-open ISO timestamp range [from, to) on usage_logs.created_at (ISO text sorts as time on both databases). */
export interface TimeRange {
  from: string;
  to: string;
}

export interface UsageFilter {
  clientId: string;
  /** Non-empty; usually one range per run of consecutive months. */
  ranges: readonly TimeRange[];
  /** Matched against the usage row's own department and unit (the assignment at the time of the query). */
  departmentIds?: readonly string[];
  unitIds?: readonly string[];
}

export interface ReportSort<C extends string> {
  by: C;
  order: 'asc' | 'desc';
}

/** null: every row (the CSV export reads the whole result a page at a time). */
export interface RowWindow {
  limit: number;
  offset: number;
}

/** A figure one side of a report's union does not have. */
const none = sql<number>`0`;

/** A query is one model answer: a usage row with purpose 'reply' (titles do not count). */
const isQuery = sql<number>`case when ul.purpose = 'reply' then 1 else 0 end`;

type UsageRows = SelectQueryBuilder<Database & { ul: UsageLogsTable }, 'ul', object>;

/** The organisation's usage rows in the period that match the department and unit filters. */
function usageRows(db: Kysely<Database>, filter: UsageFilter): UsageRows {
  let query = db
    .selectFrom('usage_logs as ul')
    .where('ul.client_id', '=', filter.clientId)
    .where((eb) => eb.or(filter.ranges.map((r) => eb.and([eb('ul.created_at', '>=', r.from), eb('ul.created_at', '<', r.to)]))));
  if (filter.departmentIds?.length) query = query.where('ul.department_id', 'in', filter.departmentIds);
  if (filter.unitIds?.length) query = query.where('ul.unit_id', 'in', filter.unitIds);
  return query;
}

/**
 * The organisation's files (documents, uploaded or generated) in the period, matched by the department and unit
 * their owner had when each was stored; the covering index documents_report_idx serves it. A deleted file no longer
 * counts (its row is gone), unlike the queries of a deleted conversation.
 */
function documentRows(db: Kysely<Database>, filter: UsageFilter) {
  let query = db
    .selectFrom('documents as doc')
    .where('doc.client_id', '=', filter.clientId)
    .where((eb) => eb.or(filter.ranges.map((r) => eb.and([eb('doc.created_at', '>=', r.from), eb('doc.created_at', '<', r.to)]))));
  if (filter.departmentIds?.length) query = query.where('doc.department_id', 'in', filter.departmentIds);
  if (filter.unitIds?.length) query = query.where('doc.unit_id', 'in', filter.unitIds);
  return query;
}

/**
 * A text column sorted case-insensitively with empty values (null) last in both directions, so a sort is the
 * same on SQLite (nulls first by default) and PostgreSQL (nulls last by default).
 */
function textOrder(column: string, order: 'asc' | 'desc'): RawBuilder<unknown>[] {
  const ref = sql.ref(column);
  return [sql`case when ${ref} is null then 1 else 0 end asc`, order === 'asc' ? sql`lower(${ref}) asc` : sql`lower(${ref}) desc`];
}

function numberOrder(column: string, order: 'asc' | 'desc'): RawBuilder<unknown>[] {
  return [order === 'asc' ? sql`${sql.ref(column)} asc` : sql`${sql.ref(column)} desc`];
}

/**
 * The organisation's departments: names are joined only from them, so a usage row naming another organisation's
 * department or unit (which the application never writes) could still not reveal its name.
 */
function ownDepartmentIds(db: Kysely<Database>, clientId: string) {
  return db.selectFrom('departments').select('id').where('client_id', '=', clientId);
}

/** Drivers answer counts and sums as text (PostgreSQL bigint and numeric) or numbers (SQLite). */
const num = (value: unknown): number => Number(value ?? 0);

// ---- Department report ----

export type DepartmentReportColumn = 'department_name' | 'unit_name' | 'query_count' | 'file_count' | 'attachments_size';

export interface DepartmentReportRecord {
  department_id: string | null;
  department_name: string | null;
  unit_id: string | null;
  unit_name: string | null;
  query_count: number;
  file_count: number;
  attachments_size: number;
}

const DEPARTMENT_SORT: Record<DepartmentReportColumn, (order: 'asc' | 'desc') => RawBuilder<unknown>[]> = {
  department_name: (o) => textOrder('d.name', o),
  unit_name: (o) => textOrder('u.name', o),
  query_count: (o) => numberOrder('g.query_count', o),
  file_count: (o) => numberOrder('g.file_count', o),
  attachments_size: (o) => numberOrder('g.attachments_size', o),
};

/**
 * One group per (department, unit) pair with at least one query or one file in the period: queries and files are
 * each aggregated by their own index, then the two sets of groups are added together.
 */
function departmentGroups(db: Kysely<Database>, filter: UsageFilter) {
  const queries = usageRows(db, filter)
    .where('ul.purpose', '=', 'reply')
    .select([
      'ul.department_id',
      'ul.unit_id',
      sql<number>`count(*)`.as('query_count'),
      none.as('file_count'),
      none.as('attachments_size'),
    ])
    .groupBy(['ul.department_id', 'ul.unit_id']);
  const files = documentRows(db, filter)
    .select([
      'doc.department_id',
      'doc.unit_id',
      none.as('query_count'),
      sql<number>`count(*)`.as('file_count'),
      sql<number>`sum(doc.size)`.as('attachments_size'),
    ])
    .groupBy(['doc.department_id', 'doc.unit_id']);
  return db
    .selectFrom(queries.unionAll(files).as('x'))
    .select([
      'x.department_id',
      'x.unit_id',
      sql<number>`sum(x.query_count)`.as('query_count'),
      sql<number>`sum(x.file_count)`.as('file_count'),
      sql<number>`sum(x.attachments_size)`.as('attachments_size'),
    ])
    .groupBy(['x.department_id', 'x.unit_id']);
}

/**
 * One page of the department report, with the number of groups (`total`, counted over the same groups by a
 * window function, so the period is aggregated once). A page past the end has no rows and total null.
 */
export async function departmentReportPage(
  db: Kysely<Database>,
  filter: UsageFilter,
  sort: ReportSort<DepartmentReportColumn>,
  window: RowWindow,
): Promise<{ rows: DepartmentReportRecord[]; total: number | null }> {
  let query = db
    .selectFrom(departmentGroups(db, filter).as('g'))
    .leftJoin('departments as d', (join) => join.onRef('d.id', '=', 'g.department_id').on('d.client_id', '=', filter.clientId))
    .leftJoin('units as u', (join) => join.onRef('u.id', '=', 'g.unit_id').on('u.department_id', 'in', ownDepartmentIds(db, filter.clientId)))
    .select([
      'g.department_id',
      'd.name as department_name',
      'g.unit_id',
      'u.name as unit_name',
      'g.query_count',
      'g.file_count',
      'g.attachments_size',
      sql<number>`count(*) over ()`.as('total'),
    ]);
    // Ties (and equal names) fall back on names then ids, so every row has one place and pages never overlap.
  for (const key of [
    ...DEPARTMENT_SORT[sort.by](sort.order),
    ...textOrder('d.name', 'asc'),
    ...textOrder('u.name', 'asc'),
    sql`coalesce(g.department_id, '') asc`,
    sql`coalesce(g.unit_id, '') asc`,
  ])
    query = query.orderBy(key as Expression<unknown>);
  const rows = await query.limit(window.limit).offset(window.offset).execute();
  return {
    rows: rows.map((r) => ({
      department_id: r.department_id,
      department_name: r.department_name ?? null,
      unit_id: r.unit_id,
      unit_name: r.unit_name ?? null,
      query_count: num(r.query_count),
      file_count: num(r.file_count),
      attachments_size: num(r.attachments_size),
    })),
    total: rows.length > 0 ? num(rows[0].total) : null,
  };
}

export async function countDepartmentGroups(db: Kysely<Database>, filter: UsageFilter): Promise<number> {
  const row = await db
    .selectFrom(departmentGroups(db, filter).as('g'))
    .select((eb) => eb.fn.countAll().as('total'))
    .executeTakeFirstOrThrow();
  return num(row.total);
}

// ---- User report ----

export type UserReportColumn =
  | 'user_name'
  | 'user_email'
  | 'department_name'
  | 'unit_name'
  | 'query_count'
  | 'files_count'
  | 'total_tokens'
  | 'attachments_size';

export interface UserReportRecord {
  user_id: string;
  user_name: string;
  user_email: string;
  department_name: string | null;
  unit_name: string | null;
  query_count: number;
  files_count: number;
  total_tokens: number;
  attachments_size: number;
}

const USER_SORT: Record<UserReportColumn, (order: 'asc' | 'desc') => RawBuilder<unknown>[]> = {
  user_name: (o) => textOrder('p.name', o),
  user_email: (o) => textOrder('p.email', o),
  department_name: (o) => textOrder('d.name', o),
  unit_name: (o) => textOrder('un.name', o),
  query_count: (o) => numberOrder('g.query_count', o),
  files_count: (o) => numberOrder('g.files_count', o),
  total_tokens: (o) => numberOrder('g.total_tokens', o),
  attachments_size: (o) => numberOrder('g.attachments_size', o),
};

/**
 * One group per person with at least one query or one file in the period; tokens count every model call, titles
 * too (titles alone do not make a person appear).
 */
function userGroups(db: Kysely<Database>, filter: UsageFilter) {
  const usage = usageRows(db, filter)
    .select([
      'ul.user_id',
      sql<number>`sum(${isQuery})`.as('query_count'),
      none.as('files_count'),
      sql<number>`sum(ul.prompt_tokens + ul.completion_tokens)`.as('total_tokens'),
      none.as('attachments_size'),
    ])
    .groupBy('ul.user_id');
  const files = documentRows(db, filter)
    .select([
      'doc.user_id',
      none.as('query_count'),
      sql<number>`count(*)`.as('files_count'),
      none.as('total_tokens'),
      sql<number>`sum(doc.size)`.as('attachments_size'),
    ])
    .groupBy('doc.user_id');
  return db
    .selectFrom(usage.unionAll(files).as('x'))
    .select([
      'x.user_id',
      sql<number>`sum(x.query_count)`.as('query_count'),
      sql<number>`sum(x.files_count)`.as('files_count'),
      sql<number>`sum(x.total_tokens)`.as('total_tokens'),
      sql<number>`sum(x.attachments_size)`.as('attachments_size'),
    ])
    .groupBy('x.user_id')
    .having(sql<number>`sum(x.query_count) + sum(x.files_count)`, '>', 0);
}

/** The person's current name, e-mail, department and unit (people no longer in the database drop out). */
function userReportRows(db: Kysely<Database>, filter: UsageFilter) {
  return db
    .selectFrom(userGroups(db, filter).as('g'))
    .innerJoin('users as p', (join) => join.onRef('p.id', '=', 'g.user_id').on('p.client_id', '=', filter.clientId))
    .leftJoin('departments as d', 'd.id', 'p.department_id')
    .leftJoin('units as un', 'un.id', 'p.unit_id');
}

/** One page of the user report and the number of people (see departmentReportPage). */
export async function userReportPage(
  db: Kysely<Database>,
  filter: UsageFilter,
  sort: ReportSort<UserReportColumn>,
  window: RowWindow,
): Promise<{ rows: UserReportRecord[]; total: number | null }> {
  let query = userReportRows(db, filter).select([
    'g.user_id',
    'p.name as user_name',
    'p.email as user_email',
    'd.name as department_name',
    'un.name as unit_name',
    'g.query_count',
    'g.files_count',
    'g.total_tokens',
    'g.attachments_size',
    sql<number>`count(*) over ()`.as('total'),
  ]);
  for (const key of [...USER_SORT[sort.by](sort.order), ...textOrder('p.name', 'asc'), sql`g.user_id asc`])
    query = query.orderBy(key as Expression<unknown>);
  const rows = await query.limit(window.limit).offset(window.offset).execute();
  return {
    rows: rows.map((r) => ({
      user_id: r.user_id,
      user_name: r.user_name,
      user_email: r.user_email,
      department_name: r.department_name ?? null,
      unit_name: r.unit_name ?? null,
      query_count: num(r.query_count),
      files_count: num(r.files_count),
      total_tokens: num(r.total_tokens),
      attachments_size: num(r.attachments_size),
    })),
    total: rows.length > 0 ? num(rows[0].total) : null,
  };
}

export async function countUserGroups(db: Kysely<Database>, filter: UsageFilter): Promise<number> {
  const row = await userReportRows(db, filter)
    .select((eb) => eb.fn.countAll().as('total'))
    .executeTakeFirstOrThrow();
  return num(row.total);
}

// ---- Dashboard ----

/** Distinct people with at least one query per UTC calendar month ('YYYY-MM') in the range; months without any are absent. */
export async function peoplePerMonth(db: Kysely<Database>, clientId: string, range: TimeRange): Promise<{ month: string; count: number }[]> {
  const month = sql<string>`substr(ul.created_at, 1, 7)`;
  const rows = await usageRows(db, { clientId, ranges: [range] })
    .where('ul.purpose', '=', 'reply')
    .select([month.as('month'), sql<number>`count(distinct ul.user_id)`.as('count')])
    .groupBy(month)
    .execute();
  return rows.map((r) => ({ month: r.month, count: num(r.count) }));
}

/** The departments with the most queries in the range (by the usage row's department), biggest first, ties by name. */
export async function topDepartments(db: Kysely<Database>, clientId: string, range: TimeRange, limit: number): Promise<{ name: string; count: number }[]> {
  const groups = usageRows(db, { clientId, ranges: [range] })
    .where('ul.purpose', '=', 'reply')
    .where('ul.department_id', 'is not', null)
    .select((eb) => ['ul.department_id', eb.fn.countAll().as('query_count')])
    .groupBy('ul.department_id');
  const rows = await db
    .selectFrom(groups.as('g'))
    .innerJoin('departments as d', (join) => join.onRef('d.id', '=', 'g.department_id').on('d.client_id', '=', clientId))
    .select(['d.name', 'g.query_count'])
    .orderBy('g.query_count', 'desc')
    .orderBy(sql`lower(d.name)`)
    .orderBy('d.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ name: r.name, count: num(r.query_count) }));
}

/** The people with the most queries in the range with their current department and unit, biggest first, ties by name. */
export async function topUsers(
  db: Kysely<Database>,
  clientId: string,
  range: TimeRange,
  limit: number,
): Promise<{ name: string; department_name: string | null; unit_name: string | null; query_count: number }[]> {
  const groups = usageRows(db, { clientId, ranges: [range] })
    .where('ul.purpose', '=', 'reply')
    .select((eb) => ['ul.user_id', eb.fn.countAll().as('query_count')])
    .groupBy('ul.user_id');
  const rows = await db
    .selectFrom(groups.as('g'))
    .innerJoin('users as p', (join) => join.onRef('p.id', '=', 'g.user_id').on('p.client_id', '=', clientId))
    .leftJoin('departments as d', 'd.id', 'p.department_id')
    .leftJoin('units as un', 'un.id', 'p.unit_id')
    .select(['p.name', 'd.name as department_name', 'un.name as unit_name', 'g.query_count'])
    .orderBy('g.query_count', 'desc')
    .orderBy(sql`lower(p.name)`)
    .orderBy('p.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    name: r.name,
    department_name: r.department_name ?? null,
    unit_name: r.unit_name ?? null,
    query_count: num(r.query_count),
  }));
}
