import type { FastifyBaseLogger } from 'fastify';

/**
 * Work that must not delay a response but must finish before the process exits: the app awaits `drain()` on close.
 * Replies being written run here (they live with the process streaming them); everything else that runs in the
 * background is a named job (server/platform/jobs/), which another process can take up.
 */
export interface BackgroundTasks {
  run(name: string, task: () => Promise<void>): void;
  drain(): Promise<void>;
}

export function createBackgroundTasks(log: FastifyBaseLogger): BackgroundTasks {
  const pending = new Set<Promise<void>>();
  return {
    run(name, task) {
      const p = task()
        .catch((err: unknown) => log.error({ err, task: name }, 'background task failed'))
        .finally(() => pending.delete(p));
      pending.add(p);
    },
    async drain() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
