import { pathTo, paths } from '../../contract/api-paths';
import type { Client } from '../../contract/clients';
import { api } from './http';

/** One client with the subscription in force now (GET /clients/{id}, superuser). */
export async function fetchClient(clientId: string, signal?: AbortSignal): Promise<Client> {
  return (await api.get<Client>(pathTo(paths.client, { id: clientId }), { signal })).data;
}
