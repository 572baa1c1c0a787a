import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { createBullJobQueue } from './bull-queue';
import type { JobName } from './queue';
import { createSqlJobQueue, type SqlJobQueue, type SqlJobQueueOptions } from './sql-queue';

/**
 * Jobs BullMQ runs when there is a Redis: ingestion, the heavy one, whose concurrency each instance sets
 * (INGEST_CONCURRENCY). Mails and titles are written in their rows' transactions or awaited by a request, and stay
 * on the jobs table, which commits with them.
 */
export const REDIS_JOBS: readonly JobName[] = ['ingest-document'];

/** The app's job queue: the jobs table alone for one process (and without REDIS_URL), with BullMQ beside it on Redis. */
export function createJobQueue(
  deps: { config: Config; db: Kysely<Database>; log: FastifyBaseLogger; closing: AbortSignal },
  options: Partial<SqlJobQueueOptions> = {},
): SqlJobQueue {
  const { config, db, log, closing } = deps;
  const sqlOptions = { leaseMs: config.jobs.leaseMs, ...options };
  const sql = createSqlJobQueue({ db, log, closing }, sqlOptions);
  if (!config.redisUrl) return sql;
  const { leaseMs, retryBaseMs, retryMaxMs, maxAttempts } = sql.options;
  return createBullJobQueue(
    { redisUrl: config.redisUrl, prefix: `${config.redisPrefix}jobs`, names: REDIS_JOBS, sql, log, closing },
    { leaseMs, retryBaseMs, retryMaxMs, maxAttempts, concurrency: config.jobs.ingestConcurrency },
  );
}
