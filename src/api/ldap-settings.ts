import { pathTo, paths } from '../../contract/api-paths';
import type { LdapSettings, LdapSettingsRequest } from '../../contract/ldap-settings';
import { ApiError } from './api-error';
import { api } from './http';

/** A client's directory settings (superuser only); null when it has none yet (the server's 404). */
export async function fetchLdapSettings(clientId: string, signal?: AbortSignal): Promise<LdapSettings | null> {
  try {
    return (await api.get<LdapSettings>(pathTo(paths.clientLdapSettings, { id: clientId }), { signal })).data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export async function saveLdapSettings(clientId: string, body: LdapSettingsRequest): Promise<LdapSettings> {
  return (await api.put<LdapSettings>(pathTo(paths.clientLdapSettings, { id: clientId }), body)).data;
}

export async function removeLdapSettings(clientId: string): Promise<void> {
  await api.delete<{ message: string }>(pathTo(paths.clientLdapSettings, { id: clientId }));
}
