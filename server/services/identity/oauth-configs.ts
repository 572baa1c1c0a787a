import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CreateOAuthConfigRequest, OAuthConfig, UpdateOAuthConfigRequest } from '../../../contract/oauth-configs';
import {
  CLIENT_NOT_FOUND,
  OAUTH_CONFIG_NOT_FOUND,
  OAUTH_KEY_MISSING,
  OAUTH_KEY_WRONG,
  OAUTH_SECRET_MASK,
  oauthProviderTaken,
  type OAuthProvider,
} from '../../../contract/oauth-configs-constants';
import type { Database } from '../../db/database';
import { findClientById } from '../../db/repositories/clients';
import {
  anyOAuthConfig,
  deleteOAuthConfig,
  findOAuthConfig,
  findOAuthConfigByProvider,
  insertOAuthConfig,
  listOAuthConfigs,
  updateOAuthConfig,
  type OAuthConfigChanges,
  type OAuthConfigRecord,
} from '../../db/repositories/oauth-configs';
import { inTransaction } from '../../db/transaction';
import { isUniqueViolation } from '../../db/unique-violation';
import { openSecret, sealSecret, SecretBoxError } from '../../lib/secret-box';
import { ConflictError, NotFoundError, UnavailableError } from '../errors';

// A client's OAuth sign-in settings (superuser only, enforced by the routes). The client secret is write-only: it is
// sealed with OAUTH_SECRET_KEY before it reaches the database, and only its mask is ever answered. Nothing here logs.

/** OAUTH_SECRET_KEY as parsed by config.ts; undefined when unset. */
export type OAuthSecretKey = Buffer | undefined;

/** The sealed secret is bound to its row: copied onto another configuration or client, it does not open. */
const boundTo = (row: Pick<OAuthConfigRecord, 'id' | 'client_id'>) => `oauth_configs:${row.id}:${row.client_id}`;

function keyOrRefuse(key: OAuthSecretKey): Buffer {
  if (!key) throw new UnavailableError(OAUTH_KEY_MISSING);
  return key;
}

function openRow(key: OAuthSecretKey, row: OAuthConfigRecord): string {
  try {
    return openSecret(keyOrRefuse(key), row.secret_sealed, boundTo(row));
  } catch (err) {
    if (err instanceof SecretBoxError) throw new UnavailableError(OAUTH_KEY_WRONG);
    throw err;
  }
}

/** Bullets, and the last 4 characters only of a secret long enough that they give nothing useful away. */
export function maskSecret(secret: string): string {
  return secret.length >= 12 ? `${OAUTH_SECRET_MASK}${secret.slice(-4)}` : OAUTH_SECRET_MASK;
}

function toView(key: OAuthSecretKey, row: OAuthConfigRecord): OAuthConfig {
  return {
    id: row.id,
    client_id: row.client_id,
    provider: row.provider,
    tenant_id: row.tenant_id,
    provider_client_id: row.provider_client_id,
    provider_client_secret_masked: maskSecret(openRow(key, row)),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function existingClient(db: Kysely<Database>, clientId: string): Promise<void> {
  if (!(await findClientById(db, clientId))) throw new NotFoundError(CLIENT_NOT_FOUND);
}

async function existingConfig(db: Kysely<Database>, clientId: string, id: string): Promise<OAuthConfigRecord> {
  const row = await findOAuthConfig(db, clientId, id);
  if (!row) throw new NotFoundError(OAUTH_CONFIG_NOT_FOUND);
  return row;
}

/** A second configuration of a provider, found before the write or by the unique index after it (a race). */
async function refusingTakenProvider<T>(provider: OAuthProvider, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError(oauthProviderTaken(provider));
    throw err;
  }
}

export async function listClientOAuthConfigs(db: Kysely<Database>, key: OAuthSecretKey, clientId: string): Promise<OAuthConfig[]> {
  await existingClient(db, clientId);
  return (await listOAuthConfigs(db, clientId)).map((row) => toView(key, row));
}

export async function createClientOAuthConfig(
  db: Kysely<Database>,
  key: OAuthSecretKey,
  clientId: string,
  input: CreateOAuthConfigRequest & { tenant_id: string | null },
): Promise<OAuthConfig> {
  await existingClient(db, clientId);
  const sealingKey = keyOrRefuse(key);
  if (await findOAuthConfigByProvider(db, clientId, input.provider)) throw new ConflictError(oauthProviderTaken(input.provider));
  const id = randomUUID();
  const row = await refusingTakenProvider(input.provider, () =>
    insertOAuthConfig(db, {
      id,
      client_id: clientId,
      provider: input.provider,
      tenant_id: input.tenant_id,
      provider_client_id: input.provider_client_id,
      secret_sealed: sealSecret(sealingKey, input.provider_client_secret, boundTo({ id, client_id: clientId })),
    }),
  );
  return toView(key, row);
}

/** PUT: only the fields sent change; the secret is kept when it is not sent. */
export async function updateClientOAuthConfig(
  db: Kysely<Database>,
  key: OAuthSecretKey,
  clientId: string,
  id: string,
  input: UpdateOAuthConfigRequest,
): Promise<OAuthConfig> {
  await existingClient(db, clientId);
  const updated = await inTransaction(db, async (trx) => {
    const row = await existingConfig(trx, clientId, id);
    const changes: OAuthConfigChanges = {};
    if (input.provider !== undefined && input.provider !== row.provider) {
      if (await findOAuthConfigByProvider(trx, clientId, input.provider)) throw new ConflictError(oauthProviderTaken(input.provider));
      changes.provider = input.provider;
    }
    if (input.tenant_id !== undefined) changes.tenant_id = input.tenant_id;
    if (input.provider_client_id !== undefined) changes.provider_client_id = input.provider_client_id;
    if (input.provider_client_secret !== undefined) {
      changes.secret_sealed = sealSecret(keyOrRefuse(key), input.provider_client_secret, boundTo(row));
    }
    await refusingTakenProvider(changes.provider ?? row.provider, () => updateOAuthConfig(trx, clientId, id, changes));
    return existingConfig(trx, clientId, id);
  });
  return toView(key, updated);
}

export async function deleteClientOAuthConfig(db: Kysely<Database>, clientId: string, id: string): Promise<{ id: string }> {
  await existingClient(db, clientId);
  if (!(await deleteOAuthConfig(db, clientId, id))) throw new NotFoundError(OAUTH_CONFIG_NOT_FOUND);
  return { id };
}

/** The client's settings for a provider with the secret opened, for the sign-in that uses them (never answered). */
export async function oauthCredentials(
  db: Kysely<Database>,
  key: OAuthSecretKey,
  clientId: string,
  provider: OAuthProvider,
): Promise<{ tenantId: string | null; clientId: string; clientSecret: string } | undefined> {
  const row = await findOAuthConfigByProvider(db, clientId, provider);
  if (!row) return undefined;
  return { tenantId: row.tenant_id, clientId: row.provider_client_id, clientSecret: openRow(key, row) };
}

/** Start-up: OAuth configurations in the database need the key they were sealed with. */
export class OAuthKeyMissingError extends Error {
  override name = 'OAuthKeyMissingError';
}

export async function requireOAuthKeyForStoredConfigs(db: Kysely<Database>, key: OAuthSecretKey): Promise<void> {
  if (key || !(await anyOAuthConfig(db))) return;
  throw new OAuthKeyMissingError(
    'OAUTH_SECRET_KEY is not set, but the database holds OAuth configurations whose client secrets are sealed with it. ' +
      'Set OAUTH_SECRET_KEY to the key they were stored with (32 bytes as 64 hex digits or base64).',
  );
}
