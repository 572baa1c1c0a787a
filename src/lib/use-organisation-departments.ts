import { useEffect, useRef } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import type { Department } from '../../contract/departments';
import { DEPARTMENTS_FETCH_FAILED } from '../../contract/departments-constants';
import { MAX_PAGE_SIZE, pagerMachine, type PageRequest, type PageResult, type PagerInput } from '../../machines/pager.machine';
import { listAllDepartments } from '../api/departments';

/** The departments of the selects come in one read (`paginate=false`), as the one page of the shared pager. */
export const departmentChoicesInput: PagerInput = {
  pageSize: MAX_PAGE_SIZE,
  mode: 'append',
  // The screen says the failure in its own words (`onFailure`); this is the pager's own.
  messages: { load: DEPARTMENTS_FETCH_FAILED },
};

/** The pager's one call: every department at once, as page 1 of 1 (exported so tests can provide it with fakes). */
export function defineDepartmentChoicesActors({ api }: { api: { listAllDepartments: typeof listAllDepartments } }) {
  return {
    fetchPage: fromPromise<PageResult, PageRequest>(async ({ input }) => {
      const clientId = input.filters.client_id as string | undefined;
      const items = await api.listAllDepartments(clientId);
      return { items, page: 1, total: items.length, totalPages: 1 };
    }),
  };
}

/** After a failure: no choices (one array, so the selector's answer stays the same between renders). */
const NONE: Department[] = [];

const departmentChoices = pagerMachine.provide({ actors: defineDepartmentChoicesActors({ api: { listAllDepartments } }) });

/**
 * Every department of the signed-in person's organisation with its units, for the Department and Unit selects
 * (Profile, the Edit User dialog; `clientId`: a client's, for the superuser), read through the shared pager: null while loading, [] after a failure, which
 * `onFailure` reports in the screen's own words.
 */
export function useOrganisationDepartments(onFailure: () => void, clientId?: string): Department[] | null {
  // The superuser names the organisation (a client's Users page); others get their own.
  const pager = useActorRef(departmentChoices, { input: clientId ? { ...departmentChoicesInput, filters: { client_id: clientId } } : departmentChoicesInput });
  // The latest callback, without reloading when a screen passes a new function on each render.
  const failed = useRef(onFailure);
  failed.current = onFailure;
  useEffect(() => {
    const sub = pager.on('notice.show', () => failed.current());
    return () => sub.unsubscribe();
  }, [pager]);
  return useSelector(pager, (s) => {
    if (s.context.error) return NONE;
    return s.context.page > 0 ? (s.context.items as Department[]) : null;
  });
}
