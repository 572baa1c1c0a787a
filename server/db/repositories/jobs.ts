import { randomUUID } from 'node:crypto';
import { PostgresAdapter, sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { Database, JobsTable } from '../database';

export type JobRecord = Selectable<JobsTable>;

export interface NewJob {
  name: string;
  payload: string;
  key?: string | null;
  maxAttempts: number;
  runAfter: string;
  /** Inserted already leased by this owner until then ('running'): the caller runs it at once. */
  lease?: { owner: string; until: string };
}

/** Inserts a job; with a key already taken, nothing (the existing job stands) and undefined is returned. */
export async function insertJob(db: Kysely<Database>, job: NewJob, now: string): Promise<JobRecord | undefined> {
  return db
    .insertInto('jobs')
    .values({
      id: randomUUID(),
      name: job.name,
      payload: job.payload,
      key: job.key ?? null,
      status: job.lease ? 'running' : 'queued',
      attempts: job.lease ? 1 : 0,
      max_attempts: job.maxAttempts,
      run_after: job.runAfter,
      leased_by: job.lease?.owner ?? null,
      leased_until: job.lease?.until ?? null,
      last_error: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .returningAll()
    .executeTakeFirst();
}

/**
 * The repeating job `key`: created due at `firstRun` when missing; when present and waiting, brought forward to
 * `latest` at the latest (a shorter interval than the one it was scheduled with takes effect at once).
 */
export async function upsertRepeatingJob(db: Kysely<Database>, job: NewJob & { key: string }, latest: string, now: string): Promise<void> {
  await db
    .insertInto('jobs')
    .values({
      id: randomUUID(),
      name: job.name,
      payload: job.payload,
      key: job.key,
      status: 'queued',
      attempts: 0,
      max_attempts: job.maxAttempts,
      run_after: job.runAfter,
      leased_by: null,
      leased_until: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        run_after: sql<string>`case when jobs.status = 'queued' and jobs.run_after > ${latest} then ${latest} else jobs.run_after end`,
      }),
    )
    .execute();
}

const claimable = (now: string) => (eb: ExpressionBuilder<Database, 'jobs'>) =>
  eb.or([
    eb.and([eb('status', '=', 'queued'), eb('run_after', '<=', now)]),
    eb.and([eb('status', '=', 'running'), eb('leased_until', '<=', now)]),
  ]);

/**
 * Takes one due job (queued and due, or running under a lease that has lapsed) of the given names for `owner`, in one
 * atomic UPDATE ... RETURNING: of two processes claiming at once, exactly one gets it (PostgreSQL: the other skips the
 * locked row; SQLite: one writer at a time, and the claim is re-checked in the UPDATE's own WHERE). Counts an attempt.
 * `id`: that job only.
 */
export async function claimJob(
  db: Kysely<Database>,
  claim: { names: readonly string[]; owner: string; now: string; leasedUntil: string; id?: string },
): Promise<JobRecord | undefined> {
  if (claim.names.length === 0) return undefined;
  let pick = db.selectFrom('jobs').select('id').where('name', 'in', claim.names).where(claimable(claim.now));
  if (claim.id !== undefined) pick = pick.where('id', '=', claim.id);
  pick = pick.orderBy('run_after').limit(1);
  if (db.getExecutor().adapter instanceof PostgresAdapter) pick = pick.forUpdate().skipLocked();
  return db
    .updateTable('jobs')
    .set({
      status: 'running',
      leased_by: claim.owner,
      leased_until: claim.leasedUntil,
      attempts: sql<number>`attempts + 1`,
      updated_at: claim.now,
    })
    .where('id', '=', pick)
    .where(claimable(claim.now))
    .returningAll()
    .executeTakeFirst();
}

/** Extends `owner`'s lease on a job; false when it is no longer theirs (it lapsed and another process took it). */
export async function renewJobLease(db: Kysely<Database>, id: string, owner: string, leasedUntil: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ leased_until: leasedUntil, updated_at: now })
    .where('id', '=', id)
    .where('leased_by', '=', owner)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A finished job leaves the table (only while `owner` still holds it). */
export async function deleteJob(db: Kysely<Database>, id: string, owner: string): Promise<void> {
  await db.deleteFrom('jobs').where('id', '=', id).where('leased_by', '=', owner).execute();
}

/**
 * Gives a job `owner` holds back to the queue, due at `runAfter`. `attempts`: the count it keeps (a job handed back
 * unfinished at shutdown does not spend an attempt; a repeating job starts again from 0).
 */
export async function requeueJob(
  db: Kysely<Database>,
  id: string,
  owner: string,
  next: { runAfter: string; attempts?: number; lastError: string | null; now: string },
): Promise<void> {
  await db
    .updateTable('jobs')
    .set({
      status: 'queued',
      run_after: next.runAfter,
      leased_by: null,
      leased_until: null,
      last_error: next.lastError,
      updated_at: next.now,
      ...(next.attempts !== undefined ? { attempts: next.attempts } : {}),
    })
    .where('id', '=', id)
    .where('leased_by', '=', owner)
    .execute();
}

/** The job's last try failed and it has no attempts left: kept as 'failed' with the error. */
export async function failJob(db: Kysely<Database>, id: string, owner: string, lastError: string, now: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ status: 'failed', leased_by: null, leased_until: null, last_error: lastError, updated_at: now })
    .where('id', '=', id)
    .where('leased_by', '=', owner)
    .execute();
}

/** Deletes the failed jobs last touched before `before` (they were kept that long for whoever looks into them). */
export async function deleteFailedJobsBefore(db: Kysely<Database>, before: string): Promise<number> {
  const result = await db.deleteFrom('jobs').where('status', '=', 'failed').where('updated_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many jobs of each name are queued, running and failed (GET /metrics). */
export async function countJobsByStatus(db: Kysely<Database>): Promise<Array<{ name: string; status: JobsTable['status']; n: number }>> {
  const rows = await db
    .selectFrom('jobs')
    .select(['name', 'status', (eb) => eb.fn.countAll<string | number>().as('n')])
    .groupBy(['name', 'status'])
    .execute();
  return rows.map((r) => ({ name: r.name, status: r.status, n: Number(r.n) }));
}
