import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { successEnvelope } from '../../contract/envelope';
import { tipList, tipListQuery } from '../../contract/tips';
import type { AppContext } from '../context';
import type { AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { listTips } from '../services/chat/tips';

export async function tipRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    paths.tips,
    {
      onRequest: guards.requireAuth,
      schema: {
        summary: 'Tips on using the assistant, filtered and paged',
        description: 'The same tips for every organisation, in a fixed order (the basics first).',
        tags: ['tips'],
        querystring: tipListQuery,
        response: { 200: successEnvelope(tipList), ...errorResponses(400) },
      },
    },
    async (request) => ok(await listTips(ctx.db, request.query)),
  );
}
