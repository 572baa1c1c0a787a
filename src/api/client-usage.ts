import { pathTo, paths } from '../../contract/api-paths';
import type { ClientUsage } from '../../contract/clients';
import { api } from './http';

/** A client's usage per department in one calendar month (`month` 1 to 12, sent as two digits). */
export async function fetchClientUsage(clientId: string, period: { year: number; month: number }, signal?: AbortSignal): Promise<ClientUsage> {
  const query = { year: String(period.year), month: String(period.month).padStart(2, '0') };
  return (await api.get<ClientUsage>(pathTo(paths.clientDepartmentUsage, { id: clientId }), { query, signal })).data;
}
