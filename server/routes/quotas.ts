import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { clientQuota } from '../../contract/clients-quota';
import { successEnvelope } from '../../contract/envelope';
import { idParams } from '../../contract/fields';
import type { AppContext } from '../context';
import { currentScope, type AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { clientQuota as quotaOf } from '../services/clients/quota';

const SUPERUSER = 'Superuser only (403 for admins and users).';

export async function quotaRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const superuserOnly = guards.requireRole('superuser');
  const tags = ['clients'];

  api.get(
    paths.clientQuota,
    {
      onRequest: superuserOnly,
      schema: {
        summary: "A client's seats and fair use this month",
        description:
          `${SUPERUSER} Seats: active people of max_users. Fair use: millions of tokens per seat per UTC calendar month; ` +
          'the allowance is fair_use x max_users x 1,000,000 tokens, the use every model call\'s prompt and completion ' +
          'tokens this month. Null fields: no subscription in force.',
        tags,
        params: idParams,
        response: { 200: successEnvelope(clientQuota), ...errorResponses(404) },
      },
    },
    async (request) => ok(await quotaOf(ctx.db, ctx.fairUse, currentScope(request), request.params.id)),
  );
}
