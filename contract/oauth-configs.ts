import { z } from 'zod';
import { idField, requestBody, requiredText } from './fields';
import {
  OAUTH_CLIENT_ID_REQUIRED,
  OAUTH_CLIENT_SECRET_REQUIRED,
  OAUTH_ID_MAX_LENGTH,
  OAUTH_PROVIDER_REQUIRED,
  OAUTH_PROVIDERS,
  OAUTH_SECRET_MAX_LENGTH,
} from './oauth-configs-constants';

/** A client's sign-in provider settings as answered: the secret only masked (it is write-only). */
export const oauthConfig = z.object({
  id: z.string(),
  client_id: z.string(),
  provider: z.enum(OAUTH_PROVIDERS),
  tenant_id: z.string().nullable(),
  provider_client_id: z.string(),
  provider_client_secret_masked: z.string().describe('Bullets and at most the last 4 characters of the secret.'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type OAuthConfig = z.infer<typeof oauthConfig>;

export const oauthConfigList = z.array(oauthConfig);

/** `/clients/{id}/oauth-configs/{configId}`. */
export const oauthConfigParams = z.object({ id: idField('id'), configId: idField('configId') });

const provider = z
  .enum(OAUTH_PROVIDERS, { error: (issue) => (issue.input == null || issue.input === '' ? OAUTH_PROVIDER_REQUIRED : `provider must be ${OAUTH_PROVIDERS.join(' or ')}`) })
  .describe(`${OAUTH_PROVIDERS.join(' or ')}; one configuration per provider per client.`);

const tenantId = z
  .string({ error: 'tenant_id must be text or null' })
  .trim()
  .max(OAUTH_ID_MAX_LENGTH, `tenant_id cannot be more than ${OAUTH_ID_MAX_LENGTH} characters`)
  .transform((text) => text || null)
  .nullable()
  .describe('Optional (Microsoft Entra tenant); empty or null is none.');

const clientId = z
  .string(requiredText(OAUTH_CLIENT_ID_REQUIRED, 'provider_client_id must be text'))
  .trim()
  .min(1, OAUTH_CLIENT_ID_REQUIRED)
  .max(OAUTH_ID_MAX_LENGTH, `provider_client_id cannot be more than ${OAUTH_ID_MAX_LENGTH} characters`);

// Not trimmed: a secret is taken exactly as the provider issued it.
const secret = z
  .string(requiredText(OAUTH_CLIENT_SECRET_REQUIRED, 'provider_client_secret must be text'))
  .min(1, OAUTH_CLIENT_SECRET_REQUIRED)
  .refine((text) => text.trim() !== '', OAUTH_CLIENT_SECRET_REQUIRED)
  .max(OAUTH_SECRET_MAX_LENGTH, `provider_client_secret cannot be more than ${OAUTH_SECRET_MAX_LENGTH} characters`)
  .describe('Write-only: stored encrypted, never answered (only `provider_client_secret_masked`).');

/** POST /clients/{id}/oauth-configs. */
export const createOAuthConfigRequest = requestBody({
  provider,
  tenant_id: tenantId.optional().transform((v) => v ?? null),
  provider_client_id: clientId,
  provider_client_secret: secret,
});
export type CreateOAuthConfigRequest = z.input<typeof createOAuthConfigRequest>;

/** PUT /clients/{id}/oauth-configs/{configId}: only what is sent changes; the secret is kept when absent. */
export const updateOAuthConfigRequest = requestBody({
  provider: provider.optional(),
  tenant_id: tenantId.optional(),
  provider_client_id: clientId.optional(),
  provider_client_secret: secret.optional(),
});
export type UpdateOAuthConfigRequest = z.input<typeof updateOAuthConfigRequest>;

/** DELETE's answer. */
export const deletedOAuthConfig = z.object({ id: z.string() });
