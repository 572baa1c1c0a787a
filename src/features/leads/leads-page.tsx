import { useActorRef, useSelector } from '@xstate/react';
import type { ContactLead } from '../../../contract/contact-form';
import { hearAboutUsOptions } from '../../../shared/contact-form-rules';
import { pagerMachine, pagerView, samePagerView } from '../../../machines/pager.machine';
import { fetchContactLeads } from '../../api/contact-leads';
import { formatDateTime } from '../../lib/format-date';
import { ButtonLink } from '../../ui/button';
import { ListError, ListStatus } from '../../ui/list-status';
import { PageTitle } from '../../ui/page-title';
import { Pagination } from '../../ui/pagination';
import { Cell, HeaderCell, ResponsiveTable, Row, RowHeader, TableBody, TableHead } from '../../ui/responsive-table';
import { useNoticeToasts } from '../../ui/use-notice-toasts';
import { defineLeadsActors, leadsListInput } from './leads-actors';

const machine = pagerMachine.provide({ actors: defineLeadsActors({ api: { fetchContactLeads } }) });

const heardLabel = (value: ContactLead['hearAboutUs']) => hearAboutUsOptions.find((o) => o.value === value)?.label ?? value;
const muted = 'text-gray-600 dark:text-gray-400';

/**
 * /leads (superuser, reached from Client Management): who sent the landing page's 'Let's Register!' form, newest
 * first, a page at a time. A thin view of the shared pager.
 */
export default function LeadsPage() {
  const pager = useActorRef(machine, { input: leadsListInput });
  useNoticeToasts(pager);
  const list = useSelector(pager, (s) => pagerView<ContactLead>(s), samePagerView);
  const busy = list.loading;

  return (
    <div className="mx-auto max-w-7xl space-y-6 p-4 sm:p-6 md:p-10">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <PageTitle description="People who sent the contact form on the landing page, newest first.">Leads</PageTitle>
        <ButtonLink href="/clients" variant="ghost" size="sm">
          Back to Client Management
        </ButtonLink>
      </div>
      <ListError message={list.error} onRetry={() => pager.send({ type: 'pager.load' })} busy={busy} />
      <ResponsiveTable
        aria-label="Leads"
        aria-busy={busy}
        footer={<ListStatus hasItems={list.items.length > 0} busy={busy} loadingLabel="Loading leads" empty={list.error ? null : 'No leads yet'} />}
      >
        <TableHead>
          <HeaderCell>Name</HeaderCell>
          <HeaderCell>Phone</HeaderCell>
          <HeaderCell>E-mail</HeaderCell>
          <HeaderCell>How they heard</HeaderCell>
          <HeaderCell>Received</HeaderCell>
        </TableHead>
        <TableBody>
          {list.items.map((lead) => (
            <Row key={lead.id}>
              <RowHeader className="font-medium break-words text-gray-900 dark:text-gray-100">{lead.name}</RowHeader>
              <Cell label="Phone">
                {lead.phone ? (
                  <a href={`tel:${lead.phone}`} className="text-blue-700 underline-offset-4 hover:underline dark:text-blue-300">
                    {lead.phone}
                  </a>
                ) : (
                  <span className={muted}>None</span>
                )}
              </Cell>
              <Cell label="E-mail" className="break-all">
                {lead.email ? (
                  <a href={`mailto:${lead.email}`} className="text-blue-700 underline-offset-4 hover:underline dark:text-blue-300">
                    {lead.email}
                  </a>
                ) : (
                  <span className={muted}>None</span>
                )}
              </Cell>
              <Cell label="How they heard">{heardLabel(lead.hearAboutUs)}</Cell>
              <Cell label="Received" className="sm:whitespace-nowrap">
                <time dateTime={lead.created_at}>{formatDateTime(lead.created_at)}</time>
              </Cell>
            </Row>
          ))}
        </TableBody>
      </ResponsiveTable>
      <Pagination page={list.page} totalPages={list.totalPages} onPageChange={(page) => pager.send({ type: 'pager.goTo', page })} />
    </div>
  );
}
