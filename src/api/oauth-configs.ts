import { pathTo, paths } from '../../contract/api-paths';
import type { CreateOAuthConfigRequest, OAuthConfig, UpdateOAuthConfigRequest } from '../../contract/oauth-configs';
import { api } from './http';

/** A client's OAuth sign-in configurations (superuser only); the secrets only masked. */
export async function fetchOAuthConfigs(clientId: string, signal?: AbortSignal): Promise<OAuthConfig[]> {
  return (await api.get<OAuthConfig[]>(pathTo(paths.clientOAuthConfigs, { id: clientId }), { signal })).data;
}

export async function createOAuthConfig(clientId: string, body: CreateOAuthConfigRequest): Promise<OAuthConfig> {
  return (await api.post<OAuthConfig>(pathTo(paths.clientOAuthConfigs, { id: clientId }), body)).data;
}

/** Only the fields sent change; without `provider_client_secret` the stored secret is kept. */
export async function updateOAuthConfig(clientId: string, configId: string, body: UpdateOAuthConfigRequest): Promise<OAuthConfig> {
  return (await api.put<OAuthConfig>(pathTo(paths.clientOAuthConfig, { id: clientId, configId }), body)).data;
}

export async function deleteOAuthConfig(clientId: string, configId: string): Promise<void> {
  await api.delete<{ id: string }>(pathTo(paths.clientOAuthConfig, { id: clientId, configId }));
}
