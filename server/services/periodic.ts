import type { FastifyBaseLogger } from 'fastify';
import { describeError } from '../llm/types';

export interface PeriodicTask {
  /** No more runs; resolves once a run in progress has ended (before the database is closed, say). */
  stop(): Promise<void>;
}

/**
 * An in-process timer loop. The server's own upkeep does not use it: that runs as repeating jobs (maintenance.ts),
 * claimed by one instance at a time; this remains for a sweep a caller runs on its own (reply-leases.ts).
 *
 * Runs `task` every `intervalMs` (and at once with `immediately`), never two runs at once: a slow run makes the
 * next tick skip rather than pile up. A failure is logged as a warning and the next tick tries again. The timer
 * never keeps the process alive by itself.
 */
export function runEvery(
  intervalMs: number,
  what: string,
  log: FastifyBaseLogger,
  task: () => Promise<void>,
  options: { immediately?: boolean } = {},
): PeriodicTask {
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= task()
      .catch((err: unknown) => log.warn({ err: describeError(err) }, `${what} failed`))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  if (options.immediately) tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
