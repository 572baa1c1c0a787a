import { pathTo, paths } from '../../contract/api-paths';
import type { Client, ClientList, RegisterClientRequest, UpdateClientRequest } from '../../contract/clients';
import type { ClientStatus } from '../../contract/clients-constants';
import { api } from './http';

/** A page of clients (the Clients page, superuser): by name or e-mail, and by status when one is chosen. */
export async function fetchClientPage(
  q: { page: number; pageSize: number; search: string; status?: ClientStatus },
  signal?: AbortSignal,
): Promise<ClientList> {
  const query = { page: q.page, page_size: q.pageSize, ...(q.search ? { search: q.search } : {}), ...(q.status ? { status: q.status } : {}) };
  return (await api.get<ClientList>(paths.clients, { query, signal })).data;
}

/** A client and its first subscription, in one transaction (Register New Client). */
export async function registerClient(body: RegisterClientRequest): Promise<Client> {
  return (await api.post<Client>(paths.clientRegister, body)).data;
}

export async function updateClient(id: string, body: UpdateClientRequest): Promise<Client> {
  return (await api.put<Client>(pathTo(paths.client, { id }), body)).data;
}

export async function setClientStatus(id: string, status: 'active' | 'inactive'): Promise<Client> {
  return (await api.patch<Client>(pathTo(paths.clientStatus, { id }), undefined, { query: { status } })).data;
}
