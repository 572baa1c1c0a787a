import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database';
import {
  claimJob,
  countJobsByStatus,
  deleteJob,
  failJob,
  insertJob,
  renewJobLease,
  requeueJob,
  upsertRepeatingJob,
  type JobRecord,
} from '../../db/repositories/jobs';
import { describeError } from '../../llm/types';
import { JobCutOff, type EnqueueOptions, type HeldJob, type JobHandler, type JobHandlers, type JobName, type JobPayloads, retryWaitMs, type RunnableJobQueue } from './queue';

export interface SqlJobQueueOptions {
  /** How long a claim holds without being renewed; renewed every third of it while the job runs. */
  leaseMs: number;
  /** How often the table is looked at for due jobs (enqueues by this process are looked at at once). */
  pollMs: number;
  /** Jobs run at once by this process. */
  concurrency: number;
  /** The wait before the second try; doubled for each further one, up to retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Tries of a job whose handler does not say. */
  maxAttempts: number;
}

export const DEFAULT_JOB_OPTIONS: SqlJobQueueOptions = {
  leaseMs: 30_000,
  pollMs: 1_000,
  // Replies are not jobs; what is (ingestion waiting for an extraction worker, titles, mails) mostly waits on others.
  concurrency: 32,
  retryBaseMs: 5_000,
  retryMaxMs: 10 * 60_000,
  maxAttempts: 8,
};

const REPEAT_KEY = 'repeat:';

export interface SqlJobQueue extends RunnableJobQueue {
  /** This process's name in `leased_by`. */
  readonly owner: string;
  /** Its settings, defaults filled in. */
  readonly options: SqlJobQueueOptions;
}

/**
 * The job queue on the jobs table (either database). A job is claimed with one atomic UPDATE that takes its lease
 * (server/db/repositories/jobs.ts); the lease is renewed while the job runs, so a process that dies lets go of its
 * jobs once their leases lapse, and any live process takes them up. A failed try is retried after an exponential
 * backoff; after the last one the job stays as 'failed' with its error, and its handler's `gaveUp` records it.
 */
export function createSqlJobQueue(
  deps: { db: Kysely<Database>; log: FastifyBaseLogger; closing: AbortSignal },
  options: Partial<SqlJobQueueOptions> = {},
): SqlJobQueue {
  const { db, log, closing } = deps;
  const opts = { ...DEFAULT_JOB_OPTIONS, ...options };
  const owner = `${hostname().replaceAll('/', '_')}/${process.pid}/${randomUUID()}`;
  let handlers: Partial<JobHandlers> = {};
  /** Repeating jobs this process takes part in, with their interval. */
  const repeating = new Map<JobName, number>();
  let state: 'idle' | 'running' | 'stopping' = 'idle';
  const inFlight = new Set<Promise<unknown>>();
  let polling: Promise<void> | undefined;
  let pollAgain = false;
  let timer: NodeJS.Timeout | undefined;

  const nowIso = () => new Date().toISOString();
  const fromNow = (ms: number) => new Date(Date.now() + ms).toISOString();
  const handlerOf = (name: string) => handlers[name as JobName] as JobHandler | undefined;
  const maxAttemptsOf = (name: string) => handlerOf(name)?.maxAttempts ?? opts.maxAttempts;
  const isRepeating = (job: JobRecord) => job.key?.startsWith(REPEAT_KEY) === true && repeating.has(job.name as JobName);
  /** Upkeep is claimed only by processes that run it (an app built without maintenance leaves it to others). */
  const claimableNames = () =>
    Object.keys(handlers).filter((name) => !name.startsWith('upkeep-') || repeating.has(name as JobName));

  /** Bookkeeping that fails (the database is gone) is logged: the lease then lapses and another process retries. */
  const bookkeeping = async (what: string, job: JobRecord, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (err) {
      log.error({ err: describeError(err), job: job.name, jobId: job.id }, `${what} failed`);
    }
  };

  async function execute(job: JobRecord): Promise<{ ok: true } | { ok: false; error: unknown }> {
    const handler = handlerOf(job.name);
    const jobLog = log.child({ job: job.name, jobId: job.id });
    if (!handler) return { ok: false, error: new Error(`no handler for job ${job.name}`) };
    const repeats = isRepeating(job);
    // The handler here says; the row keeps what the enqueuing process's said (the same, unless versions differ).
    const maxAttempts = handler.maxAttempts ?? job.max_attempts;

    // Claimed again after the processes running it stopped without ending it, as often as it may be tried.
    if (!repeats && job.attempts > maxAttempts) {
      const error = `stopped ${maxAttempts} times without finishing (the process running it ended)`;
      jobLog.error({ attempts: job.attempts - 1 }, `job ${job.name} given up: ${error}`);
      await bookkeeping('recording a job as failed', job, () => failJob(db, job.id, owner, error, nowIso()));
      await bookkeeping('recording a failed job', job, async () => handler.gaveUp?.(JSON.parse(job.payload), error));
      return { ok: false, error: new Error(error) };
    }

    const leaseLost = new AbortController();
    const renewal = setInterval(() => {
      renewJobLease(db, job.id, owner, fromNow(opts.leaseMs), nowIso()).then(
        (held) => {
          if (!held) {
            jobLog.warn('lost the lease of a running job (it lapsed and another process took it)');
            leaseLost.abort();
          }
        },
        (err: unknown) => jobLog.warn({ err: describeError(err) }, 'renewing a job lease failed'),
      );
    }, Math.max(1, Math.floor(opts.leaseMs / 3)));
    renewal.unref();

    try {
      await handler.run(JSON.parse(job.payload), { id: job.id, attempt: job.attempts, signal: AbortSignal.any([closing, leaseLost.signal]) });
      if (repeats) {
        await bookkeeping('rescheduling a repeating job', job, () =>
          requeueJob(db, job.id, owner, { runAfter: fromNow(repeating.get(job.name as JobName)!), attempts: 0, lastError: null, now: nowIso() }),
        );
      } else {
        await bookkeeping('removing a finished job', job, () => deleteJob(db, job.id, owner));
      }
      return { ok: true };
    } catch (err) {
      const error = describeError(err);
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof JobCutOff || closing.aborted) {
        // Unfinished because the app is closing: back to the queue at once, for a live process or the next start.
        jobLog.info('job cut off by the shutdown: left for another process or the next start');
        await bookkeeping('handing back a job', job, () =>
          requeueJob(db, job.id, owner, { runAfter: nowIso(), attempts: job.attempts - 1, lastError: null, now: nowIso() }),
        );
      } else if (repeats) {
        jobLog.warn({ err: error }, `${job.name} failed`);
        await bookkeeping('rescheduling a repeating job', job, () =>
          requeueJob(db, job.id, owner, { runAfter: fromNow(repeating.get(job.name as JobName)!), attempts: 0, lastError: message, now: nowIso() }),
        );
      } else if (job.attempts < maxAttempts) {
        const waitMs = retryWaitMs(opts, job.attempts);
        jobLog.warn({ err: error, attempt: job.attempts, retryInMs: waitMs }, `job ${job.name} failed; it is tried again later`);
        await bookkeeping('rescheduling a failed job', job, () =>
          requeueJob(db, job.id, owner, { runAfter: fromNow(waitMs), lastError: message, now: nowIso() }),
        );
      } else {
        jobLog.error({ err: error, attempts: job.attempts }, `job ${job.name} failed for the last time`);
        await bookkeeping('recording a job as failed', job, () => failJob(db, job.id, owner, message, nowIso()));
        await bookkeeping('recording a failed job', job, async () => handler.gaveUp?.(JSON.parse(job.payload), message));
      }
      return { ok: false, error: err };
    } finally {
      clearInterval(renewal);
    }
  }

  function launch(job: JobRecord): Promise<{ ok: true } | { ok: false; error: unknown }> {
    const run = execute(job);
    const tracked = run.finally(() => {
      inFlight.delete(tracked);
      wake();
    });
    inFlight.add(tracked);
    return run;
  }

  async function claimDue(): Promise<void> {
    do {
      pollAgain = false;
      while (state === 'running' && inFlight.size < opts.concurrency) {
        let job: JobRecord | undefined;
        try {
          job = await claimJob(db, { names: claimableNames(), owner, now: nowIso(), leasedUntil: fromNow(opts.leaseMs) });
        } catch (err) {
          log.warn({ err: describeError(err) }, 'looking for due jobs failed; looking again shortly');
          return;
        }
        if (!job) break;
        void launch(job);
      }
    } while (pollAgain && state === 'running');
  }

  function wake(): void {
    if (state !== 'running') return;
    if (polling) {
      pollAgain = true;
      return;
    }
    polling = claimDue().finally(() => {
      polling = undefined;
    });
  }

  return {
    owner,
    options: opts,
    handle(next) {
      handlers = { ...handlers, ...next };
    },
    async enqueue(name, payload, options = {}) {
      await insertJob(
        options.trx ?? db,
        { name, payload: JSON.stringify(payload), key: options.key, maxAttempts: maxAttemptsOf(name), runAfter: fromNow(options.delayMs ?? 0) },
        nowIso(),
      );
      // Written in a transaction not yet committed: the next look at the table finds it.
      if (!options.trx) wake();
    },
    async hold<N extends JobName>(name: N, payload: JobPayloads[N], options: Pick<EnqueueOptions, 'trx'> = {}): Promise<HeldJob> {
      const job = await insertJob(
        options.trx ?? db,
        {
          name,
          payload: JSON.stringify(payload),
          maxAttempts: maxAttemptsOf(name),
          runAfter: nowIso(),
          lease: { owner, until: fromNow(opts.leaseMs) },
        },
        nowIso(),
      );
      if (!job) throw new Error(`job ${name} was not recorded`);
      return {
        async run() {
          const outcome = await launch(job);
          if (!outcome.ok) throw outcome.error;
        },
      };
    },
    async repeat(name, everyMs, options = {}) {
      repeating.set(name, everyMs);
      const now = nowIso();
      await upsertRepeatingJob(
        db,
        { name, payload: '{}', key: `${REPEAT_KEY}${name}`, maxAttempts: 1, runAfter: options.immediately ? now : fromNow(everyMs) },
        fromNow(everyMs),
        now,
      );
      wake();
    },
    counts: () => countJobsByStatus(db),
    start() {
      if (state !== 'idle') return;
      state = 'running';
      timer = setInterval(wake, opts.pollMs);
      timer.unref();
      wake();
    },
    async stop() {
      state = 'stopping';
      clearInterval(timer);
      await polling;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
