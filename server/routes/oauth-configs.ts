import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { successEnvelope } from '../../contract/envelope';
import { idParams } from '../../contract/fields';
import {
  createOAuthConfigRequest,
  deletedOAuthConfig,
  oauthConfig,
  oauthConfigList,
  oauthConfigParams,
  updateOAuthConfigRequest,
} from '../../contract/oauth-configs';
import { OAUTH_CREATED, OAUTH_DELETED, OAUTH_UPDATED } from '../../contract/oauth-configs-constants';
import type { AppContext } from '../context';
import type { AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import {
  createClientOAuthConfig,
  deleteClientOAuthConfig,
  listClientOAuthConfigs,
  updateClientOAuthConfig,
} from '../services/identity/oauth-configs';

const SECRET_NOTE =
  'The client secret is write-only: stored encrypted (AES-256-GCM under OAUTH_SECRET_KEY), never answered or logged; ' +
  'answers carry `provider_client_secret_masked` only. 503 when the server has no OAUTH_SECRET_KEY, or it does not open the stored secrets.';

export async function oauthConfigRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const superuserOnly = guards.requireRole('superuser');
  const tags = ['oauth configurations'];
  const key = ctx.config.oauthSecretKey;

  api.get(
    paths.clientOAuthConfigs,
    {
      onRequest: superuserOnly,
      schema: {
        summary: "A client's OAuth sign-in configurations",
        description: `Superuser only. 404 for an unknown client. ${SECRET_NOTE}`,
        tags,
        params: idParams,
        response: { 200: successEnvelope(oauthConfigList), ...errorResponses(400, 404, 503) },
      },
    },
    async (request) => ok(await listClientOAuthConfigs(ctx.db, key, request.params.id)),
  );

  api.post(
    paths.clientOAuthConfigs,
    {
      onRequest: superuserOnly,
      schema: {
        summary: 'Add an OAuth sign-in configuration to a client',
        description:
          `Superuser only. Provider microsoft or google, one configuration per provider per client (409 for a second); ` +
          `tenant_id optional (empty is null); provider_client_id and provider_client_secret required. ${SECRET_NOTE}`,
        tags,
        params: idParams,
        body: createOAuthConfigRequest,
        response: { 200: successEnvelope(oauthConfig), ...errorResponses(400, 404, 409, 503) },
      },
    },
    async (request) => ok(await createClientOAuthConfig(ctx.db, key, request.params.id, request.body), OAUTH_CREATED),
  );

  api.put(
    paths.clientOAuthConfig,
    {
      onRequest: superuserOnly,
      schema: {
        summary: "Change a client's OAuth sign-in configuration",
        description: `Superuser only. Only the fields sent change; without provider_client_secret the stored secret is kept. ${SECRET_NOTE}`,
        tags,
        params: oauthConfigParams,
        body: updateOAuthConfigRequest,
        response: { 200: successEnvelope(oauthConfig), ...errorResponses(400, 404, 409, 503) },
      },
    },
    async (request) =>
      ok(await updateClientOAuthConfig(ctx.db, key, request.params.id, request.params.configId, request.body), OAUTH_UPDATED),
  );

  api.delete(
    paths.clientOAuthConfig,
    {
      onRequest: superuserOnly,
      schema: {
        summary: "Delete a client's OAuth sign-in configuration",
        description: 'Superuser only. 404 when the client or the configuration (of that client) does not exist.',
        tags,
        params: oauthConfigParams,
        response: { 200: successEnvelope(deletedOAuthConfig), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await deleteClientOAuthConfig(ctx.db, request.params.id, request.params.configId), OAUTH_DELETED),
  );
}
