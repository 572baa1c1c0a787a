import { useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { Client } from '../../../contract/clients';
import { clientUsageMachine, previousMonth, usageTitle, usageTotals, usd } from '../../../machines/client-usage.machine';
import { fetchClient } from '../../api/client-details';
import { fetchClientUsage } from '../../api/client-usage';
import { createSubscription, fetchAllSubscriptions, fetchPackages } from '../../api/subscriptions';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { ListError, ListStatus } from '../../ui/list-status';
import { Modal } from '../../ui/modal';
import { Cell, HeaderCell, ResponsiveTable, Row, RowHeader, TableBody, TableHead } from '../../ui/responsive-table';
import { defineClientDetailsActors } from './client-details-actors';

const api = { fetchClient, fetchAllSubscriptions, fetchPackages, createSubscription, fetchClientUsage };
const count = (n: number) => n.toLocaleString('en-US');

/**
 * Client Usage Analytics ('Client Usage Analytics - {previous month} {year}'): a thin view of
 * machines/client-usage.machine.ts. Three cards (Total Requests, Total Tokens, Total Cost) and the department
 * table. Open while mounted; `onClose` unmounts it.
 */
export function ClientUsageModal({ client, onClose }: { client: Client; onClose: () => void }) {
  const period = useMemo(() => previousMonth(new Date()), []);
  const machine = useMemo(() => clientUsageMachine.provide({ actors: { fetchUsage: defineClientDetailsActors({ api }).fetchUsage } }), []);
  const usage = useActorRef(machine, { input: { clientId: client.id, period } });
  const state = useSelector(
    usage,
    (s) => ({ busy: s.hasTag('busy'), error: s.context.error, departments: s.context.departments }),
    shallowEqual,
  );
  const totals = usageTotals(state.departments);

  return (
    <Modal
      isOpen
      onOpenChange={(open) => !open && onClose()}
      title={usageTitle(period)}
      size="3xl"
      footer={<Button onPress={onClose}>Close</Button>}
    >
      <div className="space-y-5">
        <p className="text-sm text-gray-700 dark:text-gray-300">{client.client_name}</p>
        <ListError message={state.error} onRetry={() => usage.send({ type: 'usage.retry' })} busy={state.busy} />
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <SummaryCard label="Total Requests" value={count(totals.requests)} />
          <SummaryCard label="Total Tokens" value={count(totals.tokens)} />
          <SummaryCard label="Total Cost" value={usd(totals.cost)} />
        </dl>
        <ResponsiveTable
          aria-label="Usage by department"
          aria-busy={state.busy}
          footer={
            <ListStatus
              hasItems={state.departments.length > 0}
              busy={state.busy}
              loadingLabel="Loading client usage"
              empty={state.error ? null : 'No usage in this month'}
            />
          }
        >
          <TableHead>
            <HeaderCell>Department</HeaderCell>
            <HeaderCell className="text-right">Requests</HeaderCell>
            <HeaderCell className="text-right">Prompt Tokens</HeaderCell>
            <HeaderCell className="text-right">Completion Tokens</HeaderCell>
            <HeaderCell className="text-right">Total Tokens</HeaderCell>
            <HeaderCell className="text-right">Cost (USD)</HeaderCell>
          </TableHead>
          <TableBody>
            {state.departments.map((d) => (
              <Row key={d.department_id ?? d.department_name}>
                <RowHeader className="font-medium text-gray-900 dark:text-gray-100">{d.department_name}</RowHeader>
                <Cell label="Requests" className="text-right tabular-nums">{count(d.total_requests)}</Cell>
                <Cell label="Prompt Tokens" className="text-right tabular-nums">{count(d.token_usage.prompt_tokens)}</Cell>
                <Cell label="Completion Tokens" className="text-right tabular-nums">{count(d.token_usage.completion_tokens)}</Cell>
                <Cell label="Total Tokens" className="text-right tabular-nums">{count(d.token_usage.total_tokens)}</Cell>
                <Cell label="Cost (USD)" className="text-right tabular-nums">{usd(d.token_costs.total_cost)}</Cell>
              </Row>
            ))}
          </TableBody>
        </ResponsiveTable>
      </div>
    </Modal>
  );
}

function SummaryCard({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-xl border border-gray-200 bg-white p-4 dark:border-gray-700 dark:bg-gray-900">
      <dt className="text-sm font-medium text-gray-700 dark:text-gray-300">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-gray-900 tabular-nums dark:text-gray-50">{value}</dd>
    </div>
  );
}
