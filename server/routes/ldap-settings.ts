import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { messageOnly, successEnvelope } from '../../contract/envelope';
import { idParams } from '../../contract/fields';
import { ldapSettings, ldapSettingsRequest } from '../../contract/ldap-settings';
import { LDAP_SETTINGS_DELETED, LDAP_SETTINGS_SAVED } from '../../contract/ldap-settings-constants';
import type { AppContext } from '../context';
import type { AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { getLdapSettings, putLdapSettings, removeLdapSettings } from '../services/identity/ldap-settings';

const SECRET_NOTE =
  'The service account password is write-only: stored encrypted (AES-256-GCM under OAUTH_SECRET_KEY), never answered or ' +
  'logged; answers say only `has_service_password`. 503 when the server has no OAUTH_SECRET_KEY to seal it with.';

export async function ldapSettingsRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const superuserOnly = guards.requireRole('superuser');
  const tags = ['ldap settings'];

  api.get(
    paths.clientLdapSettings,
    {
      onRequest: superuserOnly,
      schema: {
        summary: "A client's LDAP directory settings",
        description: `Superuser only. 404 for an unknown client, or one without directory settings. ${SECRET_NOTE}`,
        tags,
        params: idParams,
        response: { 200: successEnvelope(ldapSettings), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await getLdapSettings(ctx, request.params.id)),
  );

  api.put(
    paths.clientLdapSettings,
    {
      onRequest: superuserOnly,
      schema: {
        summary: "Save a client's LDAP directory settings",
        description:
          'Superuser only. The directory is used at sign-in while the client has auth type ldap under a premium ' +
          'subscription in force. Either `bind_dn_template` (with {email} or {username}) or `search_base` + ' +
          `\`search_filter\` (optionally after binding as \`service_bind_dn\`). ${SECRET_NOTE}`,
        tags,
        params: idParams,
        body: ldapSettingsRequest,
        response: { 200: successEnvelope(ldapSettings), ...errorResponses(400, 404, 503) },
      },
    },
    async (request) => ok(await putLdapSettings(ctx, request.params.id, request.body), LDAP_SETTINGS_SAVED),
  );

  api.delete(
    paths.clientLdapSettings,
    {
      onRequest: superuserOnly,
      schema: {
        summary: "Remove a client's LDAP directory settings",
        description: 'Superuser only. Its people then sign in with their Tanya passwords. 404 when there are none.',
        tags,
        params: idParams,
        response: { 200: successEnvelope(messageOnly), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      await removeLdapSettings(ctx, request.params.id);
      return ok({ message: LDAP_SETTINGS_DELETED }, LDAP_SETTINGS_DELETED);
    },
  );
}
