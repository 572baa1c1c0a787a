import type { LdapSettings, LdapSettingsInput } from '../../../contract/ldap-settings';
import { LDAP_SERVICE_SECRET_REQUIRED, LDAP_SETTINGS_NOT_FOUND } from '../../../contract/ldap-settings-constants';
import { CLIENT_NOT_FOUND, OAUTH_KEY_MISSING, OAUTH_KEY_WRONG } from '../../../contract/oauth-configs-constants';
import type { AppContext } from '../../context';
import { findClientById } from '../../db/repositories/clients';
import { deleteLdapSettings, findLdapSettings, saveLdapSettings, type LdapSettingsRecord } from '../../db/repositories/ldap-settings';
import { openSecret, sealSecret, SecretBoxError } from '../../lib/secret-box';
import { InvalidError, NotFoundError, UnavailableError } from '../errors';
import type { DirectorySettings } from './ldap-directory';

// A client's directory settings (superuser only, enforced by the routes). The service account's password is
// write-only like an OAuth client secret: sealed with OAUTH_SECRET_KEY, bound to its client, never answered or logged.

const boundTo = (clientId: string) => `client_ldap_settings:${clientId}`;

async function requireClient(ctx: AppContext, clientId: string): Promise<void> {
  if (!(await findClientById(ctx.db, clientId))) throw new NotFoundError(CLIENT_NOT_FOUND);
}

function toView(row: LdapSettingsRecord): LdapSettings {
  return {
    client_id: row.client_id,
    url: row.url,
    bind_dn_template: row.bind_dn_template,
    search_base: row.search_base,
    search_filter: row.search_filter,
    service_bind_dn: row.service_bind_dn,
    has_service_password: row.service_secret_sealed !== null,
    tls_reject_unauthorized: row.tls_reject_unauthorized === 1,
    updated_at: row.updated_at,
  };
}

export async function getLdapSettings(ctx: AppContext, clientId: string): Promise<LdapSettings> {
  await requireClient(ctx, clientId);
  const row = await findLdapSettings(ctx.db, clientId);
  if (!row) throw new NotFoundError(LDAP_SETTINGS_NOT_FOUND);
  return toView(row);
}

/** Absent password: the stored one stays; null or empty: removed; text: sealed anew. */
export async function putLdapSettings(ctx: AppContext, clientId: string, input: LdapSettingsInput): Promise<LdapSettings> {
  await requireClient(ctx, clientId);
  const stored = await findLdapSettings(ctx.db, clientId);
  let sealed = stored?.service_secret_sealed ?? null;
  if (input.service_bind_password === null || input.service_bind_password === '') sealed = null;
  else if (input.service_bind_password !== undefined) {
    if (!ctx.config.oauthSecretKey) throw new UnavailableError(OAUTH_KEY_MISSING);
    sealed = sealSecret(ctx.config.oauthSecretKey, input.service_bind_password, boundTo(clientId));
  }
  const searching = input.search_filter !== null;
  const serviceDn = searching ? input.service_bind_dn : null;
  if (serviceDn && sealed === null) {
    throw new InvalidError(LDAP_SERVICE_SECRET_REQUIRED, { service_bind_password: LDAP_SERVICE_SECRET_REQUIRED });
  }
  const row = await saveLdapSettings(ctx.db, clientId, {
    url: input.url,
    bind_dn_template: searching ? null : input.bind_dn_template,
    search_base: searching ? input.search_base : null,
    search_filter: input.search_filter,
    service_bind_dn: serviceDn,
    service_secret_sealed: serviceDn ? sealed : null,
    tls_reject_unauthorized: input.tls_reject_unauthorized ? 1 : 0,
  });
  return toView(row);
}

export async function removeLdapSettings(ctx: AppContext, clientId: string): Promise<void> {
  await requireClient(ctx, clientId);
  if (!(await deleteLdapSettings(ctx.db, clientId))) throw new NotFoundError(LDAP_SETTINGS_NOT_FOUND);
}

/** What sign-in binds with, the service password opened; undefined when the client has no directory. */
export async function directorySettingsOf(ctx: AppContext, clientId: string): Promise<DirectorySettings | undefined> {
  const row = await findLdapSettings(ctx.db, clientId);
  if (!row) return undefined;
  let servicePassword: string | null = null;
  if (row.service_secret_sealed !== null) {
    if (!ctx.config.oauthSecretKey) throw new UnavailableError(OAUTH_KEY_MISSING);
    try {
      servicePassword = openSecret(ctx.config.oauthSecretKey, row.service_secret_sealed, boundTo(clientId));
    } catch (err) {
      if (err instanceof SecretBoxError) throw new UnavailableError(OAUTH_KEY_WRONG);
      throw err;
    }
  }
  return {
    url: row.url,
    bindDnTemplate: row.bind_dn_template,
    searchBase: row.search_base,
    searchFilter: row.search_filter,
    serviceBindDn: row.service_bind_dn,
    servicePassword,
    tlsRejectUnauthorized: row.tls_reject_unauthorized === 1,
  };
}
