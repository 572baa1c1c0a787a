import { fromPromise } from 'xstate';
import type { ClientStatus } from '../../../contract/clients-constants';
import type { ClientAct, SaveClientRequest } from '../../../machines/clients-list.machine';
import { pagerMachine, type PageRequest, type PageResult } from '../../../machines/pager.machine';
import type { Draft } from '../../../machines/record-editor.machine';
import type { fetchClientPage, registerClient, setClientStatus, updateClient } from '../../api/clients';
import { withServerDetail } from '../../lib/load-failure';

/** The API functions the Clients page calls (src/api/clients.ts; tests pass fakes). */
export interface ClientsApi {
  fetchClientPage: typeof fetchClientPage;
  registerClient: typeof registerClient;
  updateClient: typeof updateClient;
  setClientStatus: typeof setClientStatus;
}

/**
 * The Clients page's side effects, for the record editor (machines/record-editor.machine.ts): a page of clients (of
 * a status, or all), the Register New Client and Edit Client saves, and the status switch. Built once at module
 * level: `recordEditorMachine.provide({ actors: defineClientsListActors({ api }) })`.
 */
export function defineClientsListActors({ api }: { api: ClientsApi }) {
  return {
    list: pagerMachine.provide({
      actors: {
        fetchPage: fromPromise<PageResult, PageRequest>(async ({ input, signal }) => {
          const status = input.filters.status as ClientStatus | undefined;
          const list = await api.fetchClientPage({ page: input.page, pageSize: input.pageSize, search: input.query, status }, signal);
          return { items: list.clients, page: list.page, total: list.total, totalPages: list.total_pages };
        }),
      },
    }),
    save: fromPromise<unknown, unknown>(({ input }) => {
      const request = input as SaveClientRequest;
      return withServerDetail(request.kind === 'register' ? api.registerClient(request.body) : api.updateClient(request.clientId, request.body));
    }),
    act: fromPromise<unknown, Draft>(({ input }) => {
      const act = input as unknown as ClientAct;
      return withServerDetail(api.setClientStatus(act.clientId, act.status));
    }),
  };
}
