import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import { Building2, Inbox } from 'lucide-react';
import type { Client } from '../../../contract/clients';
import { NO_CLIENTS_FOUND } from '../../../contract/clients-constants';
import { clientEvents, clientsListInput, type ClientStatusFilter } from '../../../machines/clients-list.machine';
import { pagerView, samePagerView } from '../../../machines/pager.machine';
import { recordEditorMachine } from '../../../machines/record-editor.machine';
import { fetchClientPage, registerClient, setClientStatus, updateClient } from '../../api/clients';
import { Button, ButtonLink } from '../../ui/button';
import { ListError, ListStatus } from '../../ui/list-status';
import { PageTitle } from '../../ui/page-title';
import { Pagination } from '../../ui/pagination';
import { HeaderCell, ResponsiveTable, TableBody, TableHead } from '../../ui/responsive-table';
import { SearchBox } from '../../ui/search-box';
import { useNoticeToasts } from '../../ui/use-notice-toasts';
import { StatusFilterChips } from '../../ui/status-filter-chips';
import { ClientDetailsModal } from './client-details-modal';
import { ClientFormModal } from './client-form-modal';
import { ClientRow, type ClientDialog } from './client-row';
import { ClientUsageModal } from './client-usage-modal';
import { defineClientsListActors } from './clients-list-actors';
import { OAuthConfigsModal } from './oauth-configs-modal';
import { LdapSettingsModal } from './ldap-settings-modal';

const machine = recordEditorMachine.provide({ actors: defineClientsListActors({ api: { fetchClientPage, registerClient, updateClient, setClientStatus } }) });

/** /clients and the superuser's /home ('Client Management'): a thin view of the record editor with the clients' input. */
export default function ClientsPage() {
  const editor = useActorRef(machine, { input: clientsListInput });
  useNoticeToasts(editor);
  const navigate = useNavigate();
  const listRef = useSelector(editor, (s) => s.children.list)!;
  const list = useSelector(listRef, (s) => pagerView<Client>(s), samePagerView);
  const status = useSelector(listRef, (s) => (s.context.filters.status as ClientStatusFilter | undefined) ?? 'all');
  // Which of the row's dialogs is open, for which client: view navigation only (each dialog runs its own machine).
  const [open, setOpen] = useState<{ dialog: ClientDialog; client: Client } | null>(null);
  const close = () => setOpen(null);
  const register = () => editor.send(clientEvents.register(new Date()));
  const canRegister = useSelector(editor, (s) => s.can(clientEvents.register(new Date())));
  const busy = list.loading || list.searching;

  return (
    <div className="mx-auto max-w-7xl space-y-6 p-6 md:p-10">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <PageTitle>Client Management</PageTitle>
        <div className="flex flex-wrap gap-2">
          <ButtonLink href="/leads">
            <Inbox aria-hidden className="size-4" /> Leads
          </ButtonLink>
          <Button variant="primary" isDisabled={!canRegister} onPress={register}>
            <Building2 aria-hidden className="size-4" /> Register New Client
          </Button>
        </div>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SearchBox
          label="Search clients"
          placeholder="Search clients by name or email..."
          value={list.searchText}
          onChange={(text) => editor.send(clientEvents.search(text))}
          className="w-full max-w-md"
        />
        <StatusFilterChips value={status} onChange={(next) => editor.send(clientEvents.filter(next))} />
      </div>
      <ListError message={list.error} onRetry={() => editor.send(clientEvents.retry())} busy={busy} />
      <ResponsiveTable
        aria-label="Clients"
        aria-busy={busy}
        footer={<ListStatus hasItems={list.items.length > 0} busy={busy} loadingLabel="Loading clients" empty={list.error ? null : NO_CLIENTS_FOUND} />}
      >
        <TableHead>
          <HeaderCell>Client Name</HeaderCell>
          <HeaderCell>Contact</HeaderCell>
          <HeaderCell>Type</HeaderCell>
          <HeaderCell>Auth Type</HeaderCell>
          <HeaderCell>Status</HeaderCell>
          <HeaderCell className="text-right">Actions</HeaderCell>
        </TableHead>
        <TableBody>
          {list.items.map((c) => (
            <ClientRow
              key={c.id}
              client={c}
              editor={editor}
              onOpen={(dialog, client) => setOpen({ dialog, client })}
              onViewUsers={(client) => void navigate(`/clients/${encodeURIComponent(client.id)}/users`)}
            />
          ))}
        </TableBody>
      </ResponsiveTable>
      <Pagination page={list.page} totalPages={list.totalPages} onPageChange={(page) => editor.send(clientEvents.goTo(page))} />
      <ClientFormModal editor={editor} />
      {open?.dialog === 'details' && <ClientDetailsModal client={open.client} onClose={close} />}
      {open?.dialog === 'usage' && <ClientUsageModal client={open.client} onClose={close} />}
      {open?.dialog === 'oauth' && <OAuthConfigsModal client={open.client} onClose={close} />}
      {open?.dialog === 'ldap' && <LdapSettingsModal client={open.client} onClose={close} />}
    </div>
  );
}
