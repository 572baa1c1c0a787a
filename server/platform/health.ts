import type { FastifyBaseLogger } from 'fastify';
import type { Health, Readiness } from '../../contract/health';
import type { AppContext } from '../context';
import { pingDatabase } from '../db/repositories/health';
import { UnavailableError } from '../services/errors';
import { pingRedis } from './redis';

/** How long readiness waits for Redis: a load balancer's probe must not hang on it. */
const REDIS_PING_TIMEOUT_MS = 1_000;

async function requireDatabase(ctx: AppContext, log: FastifyBaseLogger): Promise<void> {
  try {
    await pingDatabase(ctx.db);
  } catch (err) {
    log.error({ err }, 'health check: database unreachable');
    throw new UnavailableError('Database unreachable');
  }
}

/** Liveness: fine only when the database answers too (load balancers, the e2e runner). */
export async function checkHealth(ctx: AppContext, log: FastifyBaseLogger): Promise<Health> {
  await requireDatabase(ctx, log);
  return { status: 'ok' };
}

/** Readiness: the database, and Redis when one is configured, answer. */
export async function checkReadiness(ctx: AppContext, log: FastifyBaseLogger): Promise<Readiness> {
  await requireDatabase(ctx, log);
  if (!ctx.redis) return { status: 'ok', database: 'ok', redis: 'not_configured' };
  try {
    await pingRedis(ctx.redis, REDIS_PING_TIMEOUT_MS);
  } catch (err) {
    log.error({ err: { message: (err as Error).message } }, 'readiness: redis unreachable');
    throw new UnavailableError('Redis unreachable');
  }
  return { status: 'ok', database: 'ok', redis: 'ok' };
}
