import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// Background work as named jobs (issue 29): any live process claims a due job by taking its lease
// (leased_by, leased_until) and renews it while it works; a process that dies stops renewing, and once the lease
// has lapsed another one takes the job up. A job that fails is tried again later (run_after, attempts), until
// max_attempts, when it stays as 'failed' with its last error. Done jobs are deleted; repeating ones (upkeep) are
// rescheduled. `key` makes an enqueue idempotent (one job per document, one row per repeating job).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    // JSON text on both databases: the payload is read whole by its handler, never queried.
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('key', 'text')
    // 'queued' | 'running' | 'failed'
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_after', 'text', (c) => c.notNull())
    .addColumn('leased_until', 'text')
    .addColumn('leased_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Several NULL keys are allowed on both databases: only keyed jobs are deduplicated.
  await db.schema.createIndex('jobs_key_uq').on('jobs').column('key').unique().execute();
  // The claim looks for due queued jobs and lapsed leases; failed rows (kept for the operator) are left out.
  await db.schema
    .createIndex('jobs_due_idx')
    .on('jobs')
    .columns(['status', 'run_after'])
    .where(sql.ref('status'), '<>', sql.lit('failed'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('jobs').execute();
}
