import type { Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../../server/db/database';
import { createDb } from '../../server/db/create-db';
import { migrateToLatest } from '../../server/db/migrate';
import { loadConfig } from '../../server/config';
import { clientDepartmentUsage } from '../../server/services/clients/client-usage';
import { listClientsFor } from '../../server/services/clients/clients';
import { everyOrganisation } from '../../server/services/scope';
import { freshDatabase } from './bench-database';
import { reportGoal } from './goal-line';

// `npm run bench -- clients`: the superuser's Clients page and Client Usage Analytics at scale (issue 30), on
// PostgreSQL (DATABASE_URL or TEST_DATABASE_URL): 10,000 clients, each with a subscription in force and a past one
// and 5 departments, and 1,000,000 usage rows over 12 months, 300,000 of them one big client's (about 25,000 in the
// measured month: a 5,000-person organisation asking 5 questions a head a month; the other clients 70 rows each). Timed through the services (what the routes run, without HTTP): the list's first and a deep page, a
// search, a status filter; the month's department usage of the big client and of a small one. Median and p95 of
// RUNS runs against an absolute goal of 50 ms.

const CLIENTS = 10_000;
const ROWS = 1_000_000;
const BIG_CLIENT_ROWS = 300_000;
const DEPARTMENTS_PER_CLIENT = 5;
const PEOPLE_PER_CLIENT = 20;
const RUNS = 30;
export const CLIENTS_GOAL_MS = 50;
/** The measured month: usage-logs/clients/{id}/departments?year=2026&month=10. */
const YEAR = 2026;
const MONTH = 10;
/** The usage spans the 365 days up to the end of the measured month. */
const YEAR_END_S = Date.UTC(YEAR, MONTH, 1) / 1000;
const YEAR_S = 365 * 86_400;

export interface Timing {
  what: string;
  medianMs: number;
  p95Ms: number;
  detail: string;
}

async function seed(db: Kysely<Database>, exec: (text: string) => Promise<void>): Promise<{ big: string; small: string }> {
  const now = new Date().toISOString();
  const lastYear = new Date(Date.now() - 400 * 86_400_000).toISOString();
  const yesterday = new Date(Date.now() - 86_400_000).toISOString();
  const nextYear = new Date(Date.now() + 365 * 86_400_000).toISOString();
  const standard = await db.selectFrom('packages').select('id').where('type', '=', 'standard').executeTakeFirstOrThrow();
  // Client c: 'Client c' (c zero-padded), every tenth inactive; its people p and departments d.
  await exec(`
    insert into clients (id, client_name, email, phone, origin, status, auth_type, client_type, created_at, updated_at)
      select 'c' || lpad(i::text, 5, '0'), 'Client ' || lpad(((i::bigint * 7919) % ${CLIENTS})::text, 5, '0'),
        'contact' || i || '@client.bench', null, 'https://client' || i || '.bench',
        case when i % 10 = 0 then 'inactive' else 'active' end, 'email', 'corporate', '${now}', '${now}'
      from generate_series(0, ${CLIENTS - 1}) i;
    insert into subscriptions (id, client_id, package_id, max_users, fair_use, start_date, expire_date, created_at)
      select 's' || i || '-' || k, 'c' || lpad(i::text, 5, '0'), '${standard.id}', 50, 1,
        case k when 0 then '${lastYear}' else '${now}' end, case k when 0 then '${yesterday}' else '${nextYear}' end, '${now}'
      from generate_series(0, ${CLIENTS - 1}) i, generate_series(0, 1) k;
    insert into departments (id, client_id, name, created_at)
      select 'c' || i || '-d' || d, 'c' || lpad(i::text, 5, '0'), 'Department ' || d, '${now}'
      from generate_series(0, ${CLIENTS - 1}) i, generate_series(0, ${DEPARTMENTS_PER_CLIENT - 1}) d;`);
  // Row n: the big client (c00001) for n < BIG_CLIENT_ROWS, else client n % CLIENTS; a person of it, whose department
  // is p % DEPARTMENTS_PER_CLIENT (every 20th none); an instant in the 12 months up to the measured one's end.
  await exec(`
    insert into usage_logs (id, user_id, client_id, department_id, unit_id, conversation_id, message_id, purpose, provider,
      model, prompt_tokens, completion_tokens, cost_usd, duration_ms, created_at)
    select 'l' || lpad(n::text, 7, '0'), 'u' || c || '-' || p, 'c' || lpad(c::text, 5, '0'),
      case when p % 20 = 0 then null else 'c' || c || '-d' || (p % ${DEPARTMENTS_PER_CLIENT}) end, null, null, null,
      'reply', 'bench', 'gpt-4o-mini', n % 997, n % 389, (n % 100) / 10000.0, 1,
      to_char(to_timestamp(${YEAR_END_S} - (n::bigint * 104729 % ${YEAR_S}) - 1)
        at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    from (select n, case when n < ${BIG_CLIENT_ROWS} then 1 else n % ${CLIENTS} end as c, (n::bigint * 2654435761) % ${PEOPLE_PER_CLIENT} as p
      from generate_series(0, ${ROWS - 1}) n) s`);
  // What autovacuum does after a bulk insert: statistics, and the visibility map for index-only reads.
  await exec('vacuum analyze');
  return { big: 'c00001', small: 'c00002' };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function time(what: string, run: () => Promise<string>): Promise<Timing> {
  let detail = await run(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    detail = await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { what, medianMs: percentile(times, 50), p95Ms: percentile(times, 95), detail };
}

export async function measureClientsQuery(): Promise<{ seedSeconds: number; timings: Timing[] } | null> {
  const url = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!url?.startsWith('postgres')) {
    console.log('\n(Clients bench skipped: set DATABASE_URL or TEST_DATABASE_URL to a postgres:// URL)');
    return null;
  }
  const database = await freshDatabase(url);
  const db = createDb({ databaseUrl: database.env.DATABASE_URL, sqlitePath: '' });
  const client = new pg.Client({ connectionString: database.env.DATABASE_URL });
  await client.connect();
  try {
    await migrateToLatest(db);
    const seedStart = performance.now();
    const { big, small } = await seed(db, async (text) => void (await client.query(text)));
    const seedSeconds = (performance.now() - seedStart) / 1000;
    const config = loadConfig({ ...process.env, DATABASE_URL: '' });
    const ctx = { db, config };
    const list = (opts: Parameters<typeof listClientsFor>[2]) => async () => {
      const page = await listClientsFor(db, everyOrganisation, opts);
      return `${page.clients.length} of ${page.total}`;
    };
    const usage = (clientId: string) => async () => {
      const answer = await clientDepartmentUsage(ctx, everyOrganisation, clientId, { year: YEAR, month: MONTH });
      return `${answer.departments.reduce((sum, d) => sum + d.total_requests, 0).toLocaleString('en-US')} requests in ${answer.departments.length} rows`;
    };
    const timings = [
      await time('Clients page 1', list({ page: 1, pageSize: 10 })),
      await time('Clients page 500 (of 1,000)', list({ page: 500, pageSize: 10 })),
      await time("Clients search 'client 012'", list({ page: 1, pageSize: 10, search: 'client 012' })),
      await time('Clients status=inactive', list({ page: 1, pageSize: 10, status: 'inactive' })),
      await time('Client usage, big client (month)', usage(big)),
      await time('Client usage, small client (month)', usage(small)),
    ];
    return { seedSeconds, timings };
  } finally {
    await client.end();
    await db.destroy();
    await database.drop();
  }
}

export function printClientsQuery(result: Awaited<ReturnType<typeof measureClientsQuery>>): void {
  if (!result) return;
  console.log(
    `\nClients and client usage on PostgreSQL: ${CLIENTS.toLocaleString('en-US')} clients, ${ROWS.toLocaleString('en-US')} usage rows ` +
      `(seeded in ${result.seedSeconds.toFixed(1)} s), median and p95 of ${RUNS}:`,
  );
  for (const t of result.timings) {
    console.log(`  ${t.what.padEnd(36)} median ${t.medianMs.toFixed(1).padStart(6)} ms  p95 ${t.p95Ms.toFixed(1).padStart(6)} ms  (${t.detail})`);
    reportGoal({
      what: `${t.what} p95`,
      measured: `${t.p95Ms.toFixed(1)} ms`,
      reference: `goal ${CLIENTS_GOAL_MS} ms`,
      ratio: t.p95Ms / CLIENTS_GOAL_MS,
      goal: `<= ${CLIENTS_GOAL_MS} ms`,
      pass: t.p95Ms <= CLIENTS_GOAL_MS,
    });
  }
}
