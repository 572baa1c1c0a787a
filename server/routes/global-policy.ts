import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { successEnvelope } from '../../contract/envelope';
import { globalPolicy, globalPolicyRequest } from '../../contract/global-policy';
import { POLICY_UPDATED } from '../../contract/global-policy-constants';
import type { AppContext } from '../context';
import { currentScope, currentUser, type AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { readGlobalPolicy, updateGlobalPolicy } from '../services/organisation/global-policy';

export async function globalPolicyRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const adminOnly = guards.requireRole('admin');
  const tags = ['global policy'];

  api.get(
    paths.globalPolicy,
    {
      onRequest: adminOnly,
      schema: {
        summary: "My organisation's policy prompt",
        description: 'Admins only. The policy joins the system prompt of every reply in the organisation.',
        tags,
        response: { 200: successEnvelope(globalPolicy), ...errorResponses(403) },
      },
    },
    async (request) => ok(await readGlobalPolicy(ctx.db, currentScope(request))),
  );

  api.put(
    paths.globalPolicy,
    {
      onRequest: adminOnly,
      schema: {
        summary: "Set my organisation's policy prompt",
        description: 'Admins only. Trimmed; empty or null removes the policy. Used from the next reply on.',
        tags,
        body: globalPolicyRequest,
        response: { 200: successEnvelope(globalPolicy), ...errorResponses(400, 403) },
      },
    },
    async (request) => ok(await updateGlobalPolicy(ctx.db, currentScope(request), currentUser(request).id, request.body.policy_prompt), POLICY_UPDATED),
  );
}
