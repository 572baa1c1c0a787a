import { fromPromise } from 'xstate';
import { CONTACT_LEADS_PAGE_SIZE, FAILED_TO_FETCH_LEADS } from '../../../contract/contact-form-constants';
import type { PageRequest, PageResult, PagerInput } from '../../../machines/pager.machine';
import type { fetchContactLeads } from '../../api/contact-leads';

/** The API function the Leads page calls (src/api/contact-leads.ts; tests pass a fake). */
export interface LeadsApi {
  fetchContactLeads: typeof fetchContactLeads;
}

/** The Leads list is the shared pager: a page at a time with page buttons, 'Failed to fetch leads' when a load fails. */
export const leadsListInput: PagerInput = {
  pageSize: CONTACT_LEADS_PAGE_SIZE,
  mode: 'replace',
  messages: { load: FAILED_TO_FETCH_LEADS, loadMore: FAILED_TO_FETCH_LEADS },
};

/**
 * The Leads list's side effect: a page of leads, newest first. Built once at module level:
 * `pagerMachine.provide({ actors: defineLeadsActors({ api }) })`.
 */
export function defineLeadsActors({ api }: { api: LeadsApi }) {
  return {
    fetchPage: fromPromise<PageResult, PageRequest>(async ({ input, signal }) => {
      const page = await api.fetchContactLeads({ page: input.page }, signal);
      return { items: page.leads, page: page.page, total: page.total, totalPages: page.total_pages };
    }),
  };
}
