import { useMemo, useState, type ReactNode } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { Info, Plus } from 'lucide-react';
import type { ActorRefFrom } from 'xstate';
import type { Client } from '../../../contract/clients';
import type { Subscription } from '../../../contract/subscriptions';
import { NO_SUBSCRIPTION_HISTORY, PACKAGES_LOAD_FAILED } from '../../../contract/subscriptions-constants';
import type { SubscriptionStatus } from '../../../shared/subscription-periods';
import { clientDetailsMachine, sortHistory } from '../../../machines/client-details.machine';
import { visibleErrors, type SubscriptionFormMachine } from '../../../machines/subscription-form.machine';
import { fetchClient } from '../../api/client-details';
import { fetchClientUsage } from '../../api/client-usage';
import { createSubscription, fetchAllSubscriptions, fetchPackages } from '../../api/subscriptions';
import { formatDateTime } from '../../lib/format-date';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { cx } from '../../ui/cx';
import { ListError, ListStatus } from '../../ui/list-status';
import { Modal } from '../../ui/modal';
import { Cell, HeaderCell, ResponsiveTable, Row, RowHeader, TableBody, TableHead } from '../../ui/responsive-table';
import { Spinner } from '../../ui/spinner';
import { Tabs } from '../../ui/tabs';
import { useNoticeToasts } from '../../ui/use-notice-toasts';
import { defineClientDetailsActors } from './client-details-actors';
import { packageLabel, SubscriptionFields } from './subscription-fields';

const api = { fetchClient, fetchAllSubscriptions, fetchPackages, createSubscription, fetchClientUsage };

const STATUS_LABEL: Record<string, string> = { active: 'Active', upcoming: 'Upcoming', expired: 'Expired', inactive: 'Inactive', pending: 'Pending' };
const STATUS_STYLE: Record<string, string> = {
  active: 'bg-green-100 text-green-800 dark:bg-green-900 dark:text-green-100',
  upcoming: 'bg-blue-100 text-blue-800 dark:bg-blue-900 dark:text-blue-100',
  pending: 'bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100',
};
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function StatusBadge({ status }: { status: string }) {
  return (
    <span
      className={cx(
        'inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium',
        STATUS_STYLE[status] ?? 'bg-gray-100 text-gray-800 dark:bg-gray-800 dark:text-gray-200',
      )}
    >
      {STATUS_LABEL[status] ?? capitalise(status)}
    </span>
  );
}

/**
 * The Client Details modal ('Client Details - {client name}'): a thin view of machines/client-details.machine.ts.
 * Tabs Information and Subscriptions (the current subscription, 'Create New Subscription' and the history, its
 * status derived from the dates). Create New Subscription opens over it. Open while mounted; `onClose` unmounts it.
 */
export function ClientDetailsModal({ client, onClose }: { client: Client; onClose: () => void }) {
  const machine = useMemo(() => {
    const { loadDetails, subscriptionForm } = defineClientDetailsActors({ api });
    return clientDetailsMachine.provide({ actors: { loadDetails, subscriptionForm } });
  }, []);
  const details = useActorRef(machine, { input: { clientId: client.id } });
  useNoticeToasts(details);
  const state = useSelector(
    details,
    (s) => ({
      loading: s.matches('loading'),
      busy: s.hasTag('busy'),
      error: s.context.error,
      data: s.context.details,
      form: s.children.subscriptionForm as ActorRefFrom<SubscriptionFormMachine> | undefined,
    }),
    shallowEqual,
  );
  const [tab, setTab] = useState('information');
  const shown = state.data?.client ?? client;

  return (
    <Modal
      isOpen
      onOpenChange={(open) => !open && onClose()}
      title={`Client Details - ${shown.client_name}`}
      size="3xl"
      footer={<Button onPress={onClose}>Close</Button>}
    >
      <ListError message={state.error} onRetry={() => details.send({ type: 'details.retry' })} busy={state.busy} />
      {state.loading && (
        <div className="flex justify-center p-6">
          <Spinner label="Loading client details" />
        </div>
      )}
      {state.data && (
        <Tabs
          label="Client details"
          selectedKey={tab}
          onSelectionChange={setTab}
          tabs={[
            { id: 'information', label: 'Information', content: <Information client={state.data.client} /> },
            {
              id: 'subscriptions',
              label: 'Subscriptions',
              content: (
                <Subscriptions
                  current={state.data.client.subscription}
                  history={state.data.subscriptions}
                  busy={state.busy}
                  onCreate={() => details.send({ type: 'subscription.create' })}
                />
              ),
            },
          ]}
        />
      )}
      {state.form && <CreateSubscriptionModal form={state.form} />}
    </Modal>
  );
}

function Field({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={cx('min-w-0', wide && 'sm:col-span-2')}>
      <dt className="text-sm font-medium text-gray-600 dark:text-gray-400">{label}</dt>
      <dd className="mt-1 break-words text-sm text-gray-900 dark:text-gray-100">{children}</dd>
    </div>
  );
}

function Information({ client }: { client: Client }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-4 sm:grid-cols-2">
      <Field label="Client Name">{client.client_name}</Field>
      <Field label="Type">{capitalise(client.client_type)}</Field>
      <Field label="Email">{client.contact_info.email || 'No email'}</Field>
      <Field label="Phone">{client.contact_info.phone || 'No phone'}</Field>
      <Field label="Status">
        <StatusBadge status={client.status} />
      </Field>
      <Field label="Authentication Type">{client.auth_type.toUpperCase()}</Field>
      <Field label="Origin URL" wide>
        {client.origin ? (
          <a
            href={client.origin}
            target="_blank"
            rel="noopener noreferrer"
            className="text-blue-700 underline underline-offset-2 hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-200"
          >
            {client.origin}
          </a>
        ) : (
          'No origin URL'
        )}
      </Field>
      <Field label="Client ID" wide>
        <span className="font-mono text-xs">{client.id}</span>
      </Field>
      <Field label="Created At">{formatDateTime(client.created_at)}</Field>
      <Field label="Updated At">{formatDateTime(client.updated_at)}</Field>
    </dl>
  );
}

function Subscriptions({
  current,
  history,
  busy,
  onCreate,
}: {
  current: Subscription | null;
  history: Subscription[];
  busy: boolean;
  onCreate(): void;
}) {
  const rows = sortHistory(history, new Date());
  return (
    <div className="space-y-6">
      <section aria-labelledby="current-subscription" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h3 id="current-subscription" className="text-base font-semibold text-gray-900 dark:text-gray-50">
            Current Subscription
          </h3>
          {/* Pending, not disabled, while the details are read again after a creation: the closing Create New
              Subscription dialog gives the focus back to this button, which a disabled one would drop (then Escape
              no longer closed the details). */}
          <Button variant="primary" size="sm" onPress={onCreate} isPending={busy}>
            <Plus aria-hidden className="size-4" /> Create New Subscription
          </Button>
        </div>
        {current ? (
          <dl className="grid grid-cols-1 gap-x-6 gap-y-4 rounded-xl border border-gray-200 p-4 sm:grid-cols-2 dark:border-gray-700">
            <Field label="Package Type">{packageLabel(current.package.type)}</Field>
            <Field label="Status">
              <StatusBadge status={current.status} />
            </Field>
            <Field label="Features" wide>
              {current.package.features.length > 0 ? current.package.features.map((f) => capitalise(f.replace(/_/g, ' '))).join(', ') : 'None'}
            </Field>
            <Field label="Package Start">{formatDateTime(current.package.start_date)}</Field>
            <Field label="Package End">{formatDateTime(current.package.end_date)}</Field>
            <Field label="Max Users">{current.max_users}</Field>
            <Field label="Fair Use">{current.fair_use}</Field>
            <Field label="Start Date">{formatDateTime(current.start_date)}</Field>
            <Field label="Expiry Date">{formatDateTime(current.expire_date)}</Field>
            <Field label="Package ID" wide>
              <span className="font-mono text-xs">{current.package_id}</span>
            </Field>
          </dl>
        ) : (
          <p className="rounded-xl border border-gray-200 p-4 text-sm text-gray-700 dark:border-gray-700 dark:text-gray-300">No active subscription</p>
        )}
      </section>
      <section aria-labelledby="subscription-history" className="space-y-3">
        <h3 id="subscription-history" className="text-base font-semibold text-gray-900 dark:text-gray-50">
          Subscription History
        </h3>
        <ResponsiveTable
          aria-labelledby="subscription-history"
          aria-busy={busy}
          footer={<ListStatus hasItems={rows.length > 0} busy={busy} loadingLabel="Loading subscriptions" empty={NO_SUBSCRIPTION_HISTORY} />}
        >
          <TableHead>
            <HeaderCell>Status</HeaderCell>
            <HeaderCell>Package</HeaderCell>
            <HeaderCell>Max Users</HeaderCell>
            <HeaderCell>Start Date</HeaderCell>
            <HeaderCell>Expiry Date</HeaderCell>
            <HeaderCell>Created At</HeaderCell>
          </TableHead>
          <TableBody>
            {rows.map(({ subscription: s, status }) => (
              <Row key={s.id}>
                <RowHeader>
                  <StatusBadge status={status satisfies SubscriptionStatus} />
                </RowHeader>
                <Cell label="Package">{packageLabel(s.package_name || s.package.type)}</Cell>
                <Cell label="Max Users">{s.max_users}</Cell>
                <Cell label="Start Date">{formatDateTime(s.start_date)}</Cell>
                <Cell label="Expiry Date">{formatDateTime(s.expire_date)}</Cell>
                <Cell label="Created At">{formatDateTime(s.created_at)}</Cell>
              </Row>
            ))}
          </TableBody>
        </ResponsiveTable>
      </section>
    </div>
  );
}

const SUBSCRIPTION_FORM_ID = 'create-subscription-form';

/** Create New Subscription over the details: a thin view of machines/subscription-form.machine.ts. */
function CreateSubscriptionModal({ form }: { form: ActorRefFrom<SubscriptionFormMachine> }) {
  const state = useSelector(
    form,
    (s) => ({
      loadingPackages: s.matches('loadingPackages'),
      packagesFailed: s.matches('packagesFailed'),
      saving: s.matches('saving'),
      values: s.context.values,
      packages: s.context.packages,
      existing: s.context.existing.length,
      serverError: s.context.serverError,
      errors: visibleErrors(s.context),
    }),
    (a, b) => shallowEqual({ ...a, errors: null }, { ...b, errors: null }) && shallowEqual(a.errors, b.errors),
  );
  const cancel = () => form.send({ type: 'form.cancel' });

  return (
    <Modal
      isOpen
      onOpenChange={(open) => !open && !state.saving && cancel()}
      isDismissable={!state.saving}
      title="Create New Subscription"
      size="xl"
      footer={
        <>
          <Button isDisabled={state.saving} onPress={cancel}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form={SUBSCRIPTION_FORM_ID} isPending={state.saving} isDisabled={state.loadingPackages || state.packagesFailed}>
            {state.saving ? 'Creating...' : 'Create Subscription'}
          </Button>
        </>
      }
    >
      {state.existing > 0 && (
        <div className="mb-4 flex gap-2 rounded-lg border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-100">
          <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
          <p>
            This client already has {state.existing === 1 ? 'a subscription' : `${state.existing} subscriptions`}. The new period must not overlap any of
            them: by default it starts right after the latest expiry.
          </p>
        </div>
      )}
      {state.packagesFailed ? (
        <ListError message={PACKAGES_LOAD_FAILED} onRetry={() => form.send({ type: 'packages.retry' })} busy={false} />
      ) : state.loadingPackages ? (
        <div className="flex justify-center p-6">
          <Spinner label="Loading packages" />
        </div>
      ) : (
        <form
          id={SUBSCRIPTION_FORM_ID}
          noValidate
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            form.send({ type: 'form.submit' });
          }}
        >
          <SubscriptionFields
            values={state.values}
            errors={state.errors}
            packages={state.packages}
            isDisabled={state.saving}
            onChange={(field, value) => form.send({ type: 'field.change', field, value })}
          />
          {state.serverError && !state.errors.overlap && (
            <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
              {state.serverError}
            </p>
          )}
        </form>
      )}
    </Modal>
  );
}
