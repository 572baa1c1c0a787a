import type { AppContext } from './context';
import { deleteFailedJobsBefore } from './db/repositories/jobs';
import { deleteExpiredRateLimits } from './db/repositories/rate-limits';
import type { JobHandlers, JobQueue } from './platform/jobs/queue';
import { finishAbandonedReplies, REPLY_SWEEP_MS } from './services/chat/reply-leases';
import { sweepUnsentUploads } from './services/documents/unsent-uploads';

const HOUR_MS = 3_600_000;
/** How long a failed job (its payload and last error) is kept for someone to look into before upkeep deletes it. */
export const FAILED_JOB_RETENTION_MS = 30 * 24 * HOUR_MS;

type UpkeepJob = 'upkeep-interrupted-replies' | 'upkeep-rate-limits' | 'upkeep-unsent-uploads' | 'upkeep-failed-jobs';

/**
 * The upkeep a running server does by itself, as repeating jobs: each run is claimed by one of the instances sharing
 * the database (each task would also be safe on several at once: its deletes and updates are idempotent), and the
 * schedule is kept in the queue, so restarts neither repeat nor postpone it.
 */
export function upkeepHandlers(ctx: Pick<AppContext, 'db' | 'files' | 'log'>): Pick<JobHandlers, UpkeepJob> {
  const { db, log } = ctx;
  return {
    // Replies whose writer died on another instance (this one's own are ended before it listens: server/main.ts).
    'upkeep-interrupted-replies': {
      async run() {
        const n = await finishAbandonedReplies(db);
        if (n > 0) log.warn({ replies: n }, 'ended replies whose writer stopped (marked as interrupted)');
      },
    },
    // Rate-limit rows outlive their window.
    'upkeep-rate-limits': {
      run: () => deleteExpiredRateLimits(db, new Date(Date.now() - 24 * HOUR_MS).toISOString()),
    },
    'upkeep-unsent-uploads': {
      async run() {
        const swept = await sweepUnsentUploads(ctx);
        if (swept > 0) log.info({ files: swept }, 'deleted files attached to a new chat that was never sent');
      },
    },
    // A job that used up its attempts stays 'failed' (with its error) for a month, then goes.
    'upkeep-failed-jobs': {
      async run() {
        const deleted = await deleteFailedJobsBefore(db, new Date(Date.now() - FAILED_JOB_RETENTION_MS).toISOString());
        if (deleted > 0) log.info({ jobs: deleted }, 'deleted failed jobs older than their retention');
      },
    },
  };
}

/** Makes this process take part in the upkeep (server/main.ts's app does; tests that build many apps do not). */
export async function scheduleUpkeep(jobs: JobQueue): Promise<void> {
  await jobs.repeat('upkeep-interrupted-replies', REPLY_SWEEP_MS);
  await jobs.repeat('upkeep-rate-limits', HOUR_MS);
  await jobs.repeat('upkeep-failed-jobs', 24 * HOUR_MS);
  // Due at once on a new database; afterwards hourly by the schedule kept in the queue, however often servers restart.
  await jobs.repeat('upkeep-unsent-uploads', HOUR_MS, { immediately: true });
}
