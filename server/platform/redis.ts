import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/**
 * A connection to REDIS_URL (ioredis). It reconnects on its own; while Redis is away commands fail fast instead of
 * queueing (readiness says so at once, and nothing piles up in memory), and the outage is logged once, not per
 * retry. The URL may carry a password, so it is never logged.
 */
export function connectRedis(url: string, log: FastifyBaseLogger, name: string): Redis {
  const redis = new Redis(url, {
    connectionName: `tanya-${name}`,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // Back off to 2 s between attempts, forever: Redis coming back is picked up without a restart.
    retryStrategy: (times) => Math.min(times * 100, 2_000),
  });
  let down = false;
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    log.error({ err: { message: err.message, code: (err as { code?: string }).code } }, `redis (${name}) unreachable`);
  });
  redis.on('ready', () => {
    if (down) log.info(`redis (${name}) reachable again`);
    down = false;
  });
  return redis;
}

/** PONG within `timeoutMs`, or the reason it did not come. */
export async function pingRedis(redis: Redis, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  // Commands fail at once while the connection is not up (no offline queue): a connection still being made (just
  // started, or reconnecting) gets the rest of the time to come up.
  const ready = redis.status === 'ready' ? Promise.resolve() : new Promise<void>((resolve) => redis.once('ready', () => resolve()));
  try {
    await Promise.race([ready.then(() => redis.ping()), late]);
  } finally {
    clearTimeout(timer);
  }
}
