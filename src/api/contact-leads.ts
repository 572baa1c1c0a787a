import { paths } from '../../contract/api-paths';
import type { ContactLeadsPage } from '../../contract/contact-form';
import { api } from './http';

/** A page of the landing page's contact form leads, newest first (the Leads page, superuser). */
export async function fetchContactLeads(q: { page: number }, signal?: AbortSignal): Promise<ContactLeadsPage> {
  return (await api.get<ContactLeadsPage>(paths.contactLeads, { query: { page: q.page }, signal })).data;
}
