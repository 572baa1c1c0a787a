import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { successEnvelope } from '../../contract/envelope';
import { health } from '../../contract/health';
import type { AppContext } from '../context';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { checkHealth } from '../platform/health';

export async function healthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    paths.health,
    {
      schema: {
        summary: 'Liveness and readiness',
        description: 'Answers 200 only when the database answers too (load balancers, the end-to-end runner).',
        tags: ['health'],
        response: { 200: successEnvelope(health), ...errorResponses(503) },
      },
    },
    async (request) => ok(await checkHealth(ctx, request.log)),
  );
}
