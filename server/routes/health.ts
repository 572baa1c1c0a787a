import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { successEnvelope } from '../../contract/envelope';
import { health, readiness } from '../../contract/health';
import type { AppContext } from '../context';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { checkHealth, checkReadiness } from '../platform/health';

export async function healthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    paths.health,
    {
      schema: {
        summary: 'Liveness',
        description: 'Answers 200 only when the database answers too (load balancers, the end-to-end runner).',
        tags: ['health'],
        response: { 200: successEnvelope(health), ...errorResponses(503) },
      },
    },
    async (request) => ok(await checkHealth(ctx, request.log)),
  );
  api.get(
    paths.healthReady,
    {
      schema: {
        summary: 'Readiness',
        description:
          'Answers 200 when this instance can serve: the database answers, and Redis when REDIS_URL is set ' +
          "('not_configured' otherwise). 503 names what does not answer: take the instance out of the pool meanwhile.",
        tags: ['health'],
        response: { 200: successEnvelope(readiness), ...errorResponses(503) },
      },
    },
    async (request) => ok(await checkReadiness(ctx, request.log)),
  );
}
