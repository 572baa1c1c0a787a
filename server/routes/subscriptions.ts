import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { successEnvelope } from '../../contract/envelope';
import { createSubscriptionRequest, packageList, subscription, subscriptionList, subscriptionListQuery } from '../../contract/subscriptions';
import { SUBSCRIPTION_CREATED } from '../../contract/subscriptions-constants';
import type { AppContext } from '../context';
import { currentScope, type AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { createSubscription, listClientSubscriptions, listPackagesFor } from '../services/clients/subscriptions';

const SUPERUSER = 'Superuser only (403 for admins and users).';

export async function subscriptionRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const superuserOnly = guards.requireRole('superuser');

  api.get(
    paths.packages,
    {
      onRequest: superuserOnly,
      schema: {
        summary: 'Packages a subscription can have',
        description: `${SUPERUSER} Each with the chat features it entitles its people to (read by the server at every request).`,
        tags: ['subscriptions'],
        response: { 200: successEnvelope(packageList) },
      },
    },
    async (request) => ok(await listPackagesFor(ctx.db, currentScope(request))),
  );

  api.get(
    paths.subscriptions,
    {
      onRequest: superuserOnly,
      schema: {
        summary: "A client's subscriptions",
        description:
          `${SUPERUSER} Statuses are derived from the dates at the time of the answer (active: start <= now <= ` +
          'expiry). `status=active` gives the one in force. 404 when the client does not exist.',
        tags: ['subscriptions'],
        querystring: subscriptionListQuery,
        response: { 200: successEnvelope(subscriptionList), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { client_id, page, limit, status, sort_by, sort_order } = request.query;
      return ok(
        await listClientSubscriptions(ctx.db, currentScope(request), {
          clientId: client_id,
          page,
          limit,
          status,
          sortBy: sort_by,
          sortOrder: sort_order,
        }),
      );
    },
  );

  api.post(
    paths.subscriptions,
    {
      onRequest: superuserOnly,
      schema: {
        summary: 'Add a subscription to a client',
        description:
          `${SUPERUSER} The period must not meet any of the client's subscriptions (all of them; both ends are included, ` +
          'so a period starting at the instant another ends overlaps it): 400 with code `subscription_overlap` and the ' +
          "spec's message naming the existing period. The expiry must be after the start; max_users and fair_use are " +
          'whole numbers >= 1; the package must exist. 404 when the client does not exist.',
        tags: ['subscriptions'],
        body: createSubscriptionRequest,
        response: { 200: successEnvelope(subscription), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { client_id, ...data } = request.body;
      return ok(await createSubscription(ctx.db, currentScope(request), client_id, data), SUBSCRIPTION_CREATED);
    },
  );
}
