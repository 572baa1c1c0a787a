import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import {
  client,
  clientList,
  clientListQuery,
  clientStatusQuery,
  clientUsage,
  clientUsageQuery,
  registerClientRequest,
  updateClientRequest,
} from '../../contract/clients';
import { CLIENT_REGISTERED, CLIENT_STATUS_UPDATED, CLIENT_UPDATED } from '../../contract/clients-constants';
import { successEnvelope } from '../../contract/envelope';
import { idParams } from '../../contract/fields';
import type { AppContext } from '../context';
import { currentScope, type AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { clientDepartmentUsage } from '../services/clients/client-usage';
import { getClient, listClientsFor, registerClient, setClientStatus, updateClient } from '../services/clients/clients';

const SUPERUSER = 'Superuser only (403 for admins and users).';
const AUTH_TYPE_RULES =
  'The auth type must be one the package allows: standard email only, premium email or ldap (else 400 on `auth_type`).';
const DEACTIVATION =
  "Deactivating ends every session of the client's people at once (access and refresh tokens refused); while inactive " +
  'nobody of it can sign in. Clients are never deleted.';

export async function clientRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const superuserOnly = guards.requireRole('superuser');
  const tags = ['clients'];

  api.get(
    paths.clients,
    {
      onRequest: superuserOnly,
      schema: {
        summary: 'Client organisations, by name',
        description: `${SUPERUSER} Each client with its subscription in force (null when none).`,
        tags,
        querystring: clientListQuery,
        response: { 200: successEnvelope(clientList), ...errorResponses(400) },
      },
    },
    async (request) => {
      const { page, page_size, search, status, client_type } = request.query;
      return ok(await listClientsFor(ctx.db, currentScope(request), { page, pageSize: page_size, search, status, clientType: client_type }));
    },
  );

  api.post(
    paths.clientRegister,
    {
      onRequest: superuserOnly,
      schema: {
        summary: 'Register a client with its first subscription',
        description:
          `${SUPERUSER} The client and the subscription are stored together or not at all. status, auth_type and ` +
          `client_type default to active, email and corporate. ${AUTH_TYPE_RULES}`,
        tags,
        body: registerClientRequest,
        response: { 200: successEnvelope(client), ...errorResponses(400) },
      },
    },
    async (request) => ok(await registerClient(ctx.db, currentScope(request), request.body), CLIENT_REGISTERED),
  );

  api.get(
    paths.client,
    {
      onRequest: superuserOnly,
      schema: {
        summary: 'A client with its subscription in force',
        description: SUPERUSER,
        tags,
        params: idParams,
        response: { 200: successEnvelope(client), ...errorResponses(404) },
      },
    },
    async (request) => ok(await getClient(ctx.db, currentScope(request), request.params.id)),
  );

  api.put(
    paths.client,
    {
      onRequest: superuserOnly,
      schema: {
        summary: 'Edit a client',
        description:
          `${SUPERUSER} Every field of Edit Client. The auth type cannot change without a subscription in force; with ` +
          `one, it must be one its package allows (a standard subscription forces email). ${DEACTIVATION}`,
        tags,
        params: idParams,
        body: updateClientRequest,
        response: { 200: successEnvelope(client), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await updateClient(ctx.db, currentScope(request), request.params.id, request.body), CLIENT_UPDATED),
  );

  api.patch(
    paths.clientStatus,
    {
      onRequest: superuserOnly,
      schema: {
        summary: 'Activate or deactivate a client',
        description: `${SUPERUSER} ${DEACTIVATION}`,
        tags,
        params: idParams,
        querystring: clientStatusQuery,
        response: { 200: successEnvelope(client), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await setClientStatus(ctx.db, currentScope(request), request.params.id, request.query.status), CLIENT_STATUS_UPDATED),
  );

  api.get(
    paths.clientDepartmentUsage,
    {
      onRequest: superuserOnly,
      schema: {
        summary: "A client's usage per department in one month",
        description:
          `${SUPERUSER} One UTC calendar month: \`year\` and two-digit \`month\` together, or neither for the previous ` +
          'month. Per department: requests (model replies), prompt, completion and total tokens of every model call, ' +
          'and their cost in USD (the ledger\'s cost, split into prompt and completion by the model\'s prices). People ' +
          'without a department have a row of their own (department_id null).',
        tags,
        params: idParams,
        querystring: clientUsageQuery,
        response: { 200: successEnvelope(clientUsage), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await clientDepartmentUsage(ctx, currentScope(request), request.params.id, request.query)),
  );
}
