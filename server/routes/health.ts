import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { paths } from '../../contract/api-paths';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';

/** Liveness and readiness in one: answers 200 only when the database answers too (load balancers, the e2e runner). */
export async function healthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(paths.health, async () => {
    try {
      await sql`select 1`.execute(ctx.db);
    } catch (err) {
      app.log.error({ err }, 'health check: database unreachable');
      throw new HttpError(503, 'Database unreachable');
    }
    return { status: 'success' as const, data: { status: 'ok' } };
  });
}
