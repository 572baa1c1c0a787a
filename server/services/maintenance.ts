import type { AppContext } from '../context';
import { deleteExpiredRateLimits } from '../db/repositories/rate-limits';
import { runEvery, type PeriodicTask } from './periodic';
import { startReplySweeper } from './reply-leases';
import { sweepUnsentUploads } from './unsent-uploads';

const HOUR_MS = 3_600_000;

/**
 * The upkeep a running server does by itself. Every instance sharing the database runs it: each task is safe to
 * run on several at once (its deletes and updates are idempotent).
 */
export function startMaintenance(ctx: Pick<AppContext, 'db' | 'files' | 'log'>): PeriodicTask {
  const { db, log } = ctx;
  const tasks = [
    // Replies whose writer died on another instance (this one's own are ended before it listens: server/main.ts).
    startReplySweeper(db, log),
    // Rate-limit rows outlive their window.
    runEvery(HOUR_MS, 'the rate-limit sweep', log, () => deleteExpiredRateLimits(db, new Date(Date.now() - 24 * HOUR_MS).toISOString())),
    // At start too: a server restarted more often than hourly would otherwise never get to it.
    runEvery(
      HOUR_MS,
      'the unsent-upload sweep',
      log,
      async () => {
        const swept = await sweepUnsentUploads(ctx);
        if (swept > 0) log.info({ files: swept }, 'deleted files attached to a new chat that was never sent');
      },
      { immediately: true },
    ),
  ];
  return {
    async stop() {
      await Promise.all(tasks.map((task) => task.stop()));
    },
  };
}
