import type { FastifyBaseLogger } from 'fastify';
import { Queue, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { describeError } from '../../llm/types';
import { connectRedis } from '../redis';
import { JobCutOff, retryWaitMs, type JobCount, type JobHandler, type JobHandlers, type JobName, type RunnableJobQueue } from './queue';
import type { SqlJobQueue, SqlJobQueueOptions } from './sql-queue';

export interface BullJobQueueOptions extends Pick<SqlJobQueueOptions, 'leaseMs' | 'retryBaseMs' | 'retryMaxMs' | 'maxAttempts'> {
  /** Jobs of one name run at once by this instance. */
  concurrency: number;
}

/** A given-up job is kept this long (as the SQL queue's failed rows are, until upkeep deletes them). */
const FAILED_RETENTION_S = 30 * 24 * 3600;

/**
 * The job queue of several instances sharing a Redis (REDIS_URL): the jobs named in `names` run as BullMQ jobs, one
 * BullMQ queue per name, each instance running `concurrency` of them at once, with retries after a growing wait, and
 * a job whose instance died (its lock no longer renewed) moved back to waiting by a live instance's stalled check
 * within `leaseMs` to `2 × leaseMs`. Everything else stays on the SQL queue it wraps: jobs written in a caller's
 * transaction (BullMQ cannot commit with it), jobs a request holds and waits for, and the repeating upkeep, whose
 * schedule row is claimed by one instance per run.
 *
 * The SQL queue's rules hold: a run cut off by the app closing goes back to waiting without counting as a try; a job
 * whose instances died under it as often as its handler's `maxAttempts` is failed and its `gaveUp` runs; one job per
 * `key` while it waits, runs or has failed.
 */
export function createBullJobQueue(
  deps: { redisUrl: string; prefix: string; names: readonly JobName[]; sql: SqlJobQueue; log: FastifyBaseLogger; closing: AbortSignal },
  opts: BullJobQueueOptions,
): SqlJobQueue & RunnableJobQueue {
  const { sql, log, closing } = deps;
  let handlers: Partial<JobHandlers> = {};
  // Producers share one connection; each worker has its own (BullMQ adds a blocking one per worker).
  const connection = connectRedis(deps.redisUrl, log, 'jobs');
  const queues = new Map(deps.names.map((name) => [name, new Queue(name, { connection, prefix: deps.prefix })]));
  const workers: Array<{ worker: Worker; connection: Redis }> = [];
  const running = new Set<Promise<void>>();
  const handlerOf = (name: string) => handlers[name as JobName] as JobHandler | undefined;
  const maxAttemptsOf = (name: string) => handlerOf(name)?.maxAttempts ?? opts.maxAttempts;

  async function runJob(job: Job, token: string | undefined, signal: AbortSignal | undefined): Promise<void> {
    const handler = handlerOf(job.name);
    if (!handler) throw new Error(`no handler for job ${job.name}`);
    // Moved back to waiting this often by a stalled check: the instances running it kept dying (a file that brings
    // the process down), so it is not tried again.
    const maxAttempts = maxAttemptsOf(job.name);
    if (job.stalledCounter >= maxAttempts) throw new UnrecoverableError(`stopped ${maxAttempts} times without finishing (the process running it ended)`);
    const jobSignal = signal ? AbortSignal.any([closing, signal]) : closing;
    try {
      await handler.run(job.data, { id: job.id!, attempt: job.attemptsMade + job.stalledCounter + 1, signal: jobSignal });
    } catch (err) {
      if (!(err instanceof JobCutOff) && !closing.aborted) throw err;
      log.info({ job: job.name, jobId: job.id }, 'job cut off by the shutdown: left for another instance or the next start');
      await job.moveToWait(token);
      throw new WaitingError();
    }
  }

  function startWorker(name: JobName): { worker: Worker; connection: Redis } {
    const workerConnection = connectRedis(deps.redisUrl, log, `jobs-${name}`, { waits: true });
    const track = (job: Job, token: string | undefined, signal: AbortSignal | undefined) => {
      const run = runJob(job, token, signal);
      const tracked = run.then(
        () => undefined,
        () => undefined,
      );
      running.add(tracked);
      void tracked.finally(() => running.delete(tracked));
      return run;
    };
    const worker = new Worker(name, track, {
      connection: workerConnection,
      prefix: deps.prefix,
      concurrency: opts.concurrency,
      lockDuration: opts.leaseMs,
      stalledInterval: opts.leaseMs,
      // A stalled job always goes back to waiting, so that runJob gives it up (BullMQ's own limit fails it without
      // an event for gaveUp).
      maxStalledCount: Number.MAX_SAFE_INTEGER,
      settings: { backoffStrategy: (attemptsMade: number) => retryWaitMs(opts, attemptsMade) },
      autorun: false,
    });
    worker.on('failed', (job, err) => {
      if (!job) return;
      const jobLog = log.child({ job: job.name, jobId: job.id });
      const lastTry = err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
      if (!lastTry) {
        jobLog.warn({ err: describeError(err), attempt: job.attemptsMade }, `job ${job.name} failed; it is tried again later`);
        return;
      }
      jobLog.error({ err: describeError(err), attempts: job.attemptsStarted }, `job ${job.name} failed for the last time`);
      handlerOf(name)
        ?.gaveUp?.(job.data, err.message)
        .catch((gaveUpErr: unknown) => jobLog.error({ err: describeError(gaveUpErr) }, 'recording a failed job failed'));
    });
    worker.on('error', (err) => log.warn({ err: describeError(err), job: name }, 'job worker error'));
    void worker.run().catch((err: unknown) => log.error({ err: describeError(err), job: name }, 'job worker stopped'));
    return { worker, connection: workerConnection };
  }

  return {
    owner: sql.owner,
    options: sql.options,
    handle(next) {
      handlers = { ...handlers, ...next };
      sql.handle(next);
    },
    async enqueue(name, payload, options = {}) {
      const queue = queues.get(name);
      if (!queue || options.trx) return sql.enqueue(name, payload, options);
      await queue.add(name, payload, {
        // BullMQ's custom ids may not contain ':'; a key is one job while it waits, runs or has failed.
        jobId: options.key?.replaceAll(':', '-'),
        delay: options.delayMs,
        attempts: maxAttemptsOf(name),
        backoff: { type: 'custom' },
        removeOnComplete: true,
        removeOnFail: { age: FAILED_RETENTION_S },
      });
    },
    hold: (name, payload, options) => sql.hold(name, payload, options),
    repeat: (name, everyMs, options) => sql.repeat(name, everyMs, options),
    async counts() {
      const counted: JobCount[] = (await sql.counts()).filter((c) => !queues.has(c.name as JobName));
      for (const [name, queue] of queues) {
        const n = await queue.getJobCounts('wait', 'delayed', 'prioritized', 'active', 'failed');
        counted.push(
          { name, status: 'queued', n: (n.wait ?? 0) + (n.delayed ?? 0) + (n.prioritized ?? 0) },
          { name, status: 'running', n: n.active ?? 0 },
          { name, status: 'failed', n: n.failed ?? 0 },
        );
      }
      return counted;
    },
    start() {
      sql.start();
      if (workers.length > 0) return;
      for (const name of queues.keys()) if (handlerOf(name)) workers.push(startWorker(name));
    },
    async stop() {
      // A worker's close takes no more jobs and waits for its running ones (the app's closing signal cuts them off
      // after its grace), unless Redis is away: BullMQ's close would then wait for it forever, so it is forced, and
      // the jobs still running here are waited for apart (their bookkeeping fails; their locks lapse).
      await Promise.all(workers.map((w) => w.worker.close(w.connection.status !== 'ready')));
      while (running.size > 0) await Promise.all([...running]);
      await Promise.all([...queues.values()].map((q) => q.close()));
      for (const w of workers) w.connection.disconnect();
      connection.disconnect();
      await sql.stop();
    },
  };
}
