import { sql, type Kysely } from 'kysely';
import type { Database } from '../database';

/** One department's (or no department's) usage of one model in a period: costs are split per model by its prices. */
export interface DepartmentModelUsage {
  /** The department recorded on the usage rows (the person's at the time of the call); null: none. */
  department_id: string | null;
  /** Null for no department, and for a department deleted since. */
  department_name: string | null;
  model: string;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number;
}

/**
 * The organisation's usage rows in [from, to) summed by department and model, by the database. A request is a
 * model reply (purpose 'reply'); tokens and costs count every model call (titles too).
 */
export async function departmentUsageBetween(
  db: Kysely<Database>,
  clientId: string,
  from: string,
  to: string,
): Promise<DepartmentModelUsage[]> {
  // Summed first, named after: the join then meets a handful of groups, not every row of the month (PostgreSQL, a
  // month of 25,000 rows of one client among 1,000,000: npm run bench -- clients).
  const sums = db
    .selectFrom('usage_logs as ul')
    .select(['ul.department_id', 'ul.model'])
    .select((eb) => [
      eb.fn.sum<number | string>(sql<number>`case when ul.purpose = 'reply' then 1 else 0 end`).as('requests'),
      eb.fn.sum<number | string>('ul.prompt_tokens').as('prompt_tokens'),
      eb.fn.sum<number | string>('ul.completion_tokens').as('completion_tokens'),
      eb.fn.sum<number | string>('ul.cost_usd').as('cost_usd'),
    ])
    .where('ul.client_id', '=', clientId)
    .where('ul.created_at', '>=', from)
    .where('ul.created_at', '<', to)
    .groupBy(['ul.department_id', 'ul.model'])
    .as('u');
  const rows = await db
    .selectFrom(sums)
    .leftJoin('departments as d', 'd.id', 'u.department_id')
    .select(['u.department_id', 'd.name as department_name', 'u.model', 'u.requests', 'u.prompt_tokens', 'u.completion_tokens', 'u.cost_usd'])
    .execute();
  // PostgreSQL sums integers as bigint and numeric, which its driver hands over as text.
  return rows.map((row) => ({
    department_id: row.department_id,
    department_name: row.department_name,
    model: row.model,
    requests: Number(row.requests),
    prompt_tokens: Number(row.prompt_tokens),
    completion_tokens: Number(row.completion_tokens),
    cost_usd: Number(row.cost_usd),
  }));
}
