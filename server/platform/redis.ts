import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/**
 * A connection to REDIS_URL (ioredis). It reconnects on its own; while Redis is away a command waits for one
 * reconnection attempt and then fails (nothing piles up in memory), and the outage is logged once, not per retry.
 * The URL may carry a password, so it is never logged.
 */
export function connectRedis(url: string, log: FastifyBaseLogger, name: string, options: { waits?: boolean } = {}): Redis {
  const redis = new Redis(url, {
    connectionName: `tanya-${name}`,
    // `waits`: a BullMQ worker's connection, whose commands wait for Redis as long as it takes (BullMQ requires it).
    maxRetriesPerRequest: options.waits ? null : 1,
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
  try {
    await Promise.race([redis.ping(), late]);
  } finally {
    clearTimeout(timer);
  }
}
