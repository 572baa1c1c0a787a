import type { FastifyBaseLogger } from 'fastify';
import type { Health } from '../../contract/health';
import type { AppContext } from '../context';
import { pingDatabase } from '../db/repositories/health';
import { UnavailableError } from '../services/errors';

/** Liveness and readiness in one: fine only when the database answers too (load balancers, the e2e runner). */
export async function checkHealth(ctx: AppContext, log: FastifyBaseLogger): Promise<Health> {
  try {
    await pingDatabase(ctx.db);
  } catch (err) {
    log.error({ err }, 'health check: database unreachable');
    throw new UnavailableError('Database unreachable');
  }
  return { status: 'ok' };
}
