import { assertEvent, assign, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import type { CreateSubscriptionRequest, PackageView, Subscription } from '../contract/subscriptions';
import { PACKAGES_LOAD_FAILED, SUBSCRIPTION_CREATE_FAILED, SUBSCRIPTION_CREATED } from '../contract/subscriptions-constants';
import type { Period } from '../shared/subscription-periods';
import { serverDetailOf } from './load-failure';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { report, type ReportsTo } from './report';
import {
  defaultSubscriptionValues,
  toSubscriptionPayload,
  validateSubscription,
  withFieldChange,
  type SubscriptionErrors,
  type SubscriptionField,
  type SubscriptionValues,
} from './subscription-rules';

export * from './subscription-rules';

/**
 * Create New Subscription (administration spec sections 2, 4, 5, 7, 8): a new subscription of one client.
 *
 * `loadingPackages` (tag `busy`): the packages (`fetchPackages`, GET /packages/) -> `editing`, or `packagesFailed`
 * ('Failed to load packages. Please try again.', `packages.retry`). `editing`: the five fields with the defaults
 * (start after the latest existing expiry but never before now, a one-year term, max users 1, fair use 1); a field's
 * message shows once it was changed or a submit was tried (the expiry follows a changed start by a year until it is
 * changed itself), and the overlap sentence as soon as the typed period
 * meets one of `existing` (all the client's subscriptions). `form.submit` with every rule met -> `saving` (tag
 * `busy`, `createSubscription`, POST /subscriptions/) -> `saved` (final, output: the new subscription) with the
 * toast 'Subscription created successfully'. A refusal goes back to `editing` with the server's sentence inline
 * (e.g. its overlap sentence, code `subscription_overlap`), else 'Failed to create subscription'; what was typed is
 * kept. `form.cancel` -> `cancelled` (final) from `editing` and `packagesFailed`.
 */

export interface SubscriptionFormInput extends ReportsTo {
  clientId: string;
  /** Every subscription of the client (all pages): the defaults and the overlap check read them. */
  existing: Period[];
  /** ISO time the form opens at: the defaults never start before it. */
  now: string;
}

export interface SubscriptionFormContext extends SubscriptionFormInput {
  packages: PackageView[];
  values: SubscriptionValues;
  /** Fields changed since the form opened: their messages show. */
  touched: SubscriptionField[];
  /** A submit was tried: every message shows. */
  submitted: boolean;
  /** The server's refusal (or the fallback sentence), shown inline until the next change. */
  serverError: string | null;
  created: Subscription | null;
}

export type SubscriptionFormEvent =
  | { type: 'field.change'; field: SubscriptionField; value: string }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  | { type: 'packages.retry' }
  | DoneActorEvent<PackageView[], 'fetchPackages'>
  | ErrorActorEvent<unknown, 'fetchPackages'>
  | DoneActorEvent<Subscription, 'createSubscription'>
  | ErrorActorEvent<unknown, 'createSubscription'>;

/** The messages to show now: the touched fields' (all after a submit), the overlap sentence always. */
export function visibleErrors(context: Pick<SubscriptionFormContext, 'values' | 'existing' | 'touched' | 'submitted'>): SubscriptionErrors {
  const all = validateSubscription(context.values, context.existing);
  const shown: SubscriptionErrors = {};
  for (const [field, message] of Object.entries(all) as [keyof SubscriptionErrors, string][]) {
    if (field === 'overlap' || context.submitted || context.touched.includes(field)) shown[field] = message;
  }
  return shown;
}

export const subscriptionFormMachine = setup({
  types: {
    context: {} as SubscriptionFormContext,
    events: {} as SubscriptionFormEvent,
    input: {} as SubscriptionFormInput,
    emitted: {} as Notice,
    output: {} as Subscription | null,
    tags: {} as 'busy',
    children: {} as { fetchPackages: 'fetchPackages'; createSubscription: 'createSubscription' },
  },
  actors: {
    fetchPackages: notProvided<PackageView[], void>('fetchPackages'),
    createSubscription: notProvided<Subscription, CreateSubscriptionRequest>('createSubscription'),
  },
  guards: {
    isValid: ({ context }) => Object.keys(validateSubscription(context.values, context.existing)).length === 0,
  },
  actions: {
    reportCreated: report(() => notice('success', SUBSCRIPTION_CREATED)),
  },
}).createMachine({
  id: 'subscriptionForm',
  context: ({ input }) => ({
    ...input,
    packages: [],
    values: defaultSubscriptionValues(input.existing, new Date(input.now)),
    touched: [],
    submitted: false,
    serverError: null,
    created: null,
  }),
  initial: 'loadingPackages',
  states: {
    loadingPackages: {
      description: 'The packages to choose from are being read.',
      tags: ['busy'],
      invoke: {
        id: 'fetchPackages',
        src: 'fetchPackages',
        onDone: { target: 'editing', actions: assign({ packages: ({ event }) => event.output }) },
        onError: 'packagesFailed',
      },
    },
    packagesFailed: {
      description: `The packages could not be read: '${PACKAGES_LOAD_FAILED}' with Try again.`,
      on: { 'packages.retry': 'loadingPackages', 'form.cancel': 'cancelled' },
    },
    editing: {
      description: 'The five fields, with their messages and the overlap sentence as typed.',
      on: {
        'field.change': {
          actions: assign(({ context, event }) => {
            assertEvent(event, 'field.change');
            return {
              values: withFieldChange(context.values, event.field, event.value, context.touched.includes('expiryDate')),
              touched: context.touched.includes(event.field) ? context.touched : [...context.touched, event.field],
              serverError: null,
            };
          }),
        },
        'form.submit': [{ guard: 'isValid', target: 'saving' }, { actions: assign({ submitted: true }) }],
        'form.cancel': 'cancelled',
      },
    },
    saving: {
      description: 'The subscription is being created; the form waits, busy.',
      tags: ['busy'],
      invoke: {
        id: 'createSubscription',
        src: 'createSubscription',
        input: ({ context }) => ({ client_id: context.clientId, ...toSubscriptionPayload(context.values) }),
        onDone: { target: 'saved', actions: [assign({ created: ({ event }) => event.output }), 'reportCreated'] },
        onError: {
          target: 'editing',
          actions: assign({ serverError: ({ event }) => serverDetailOf(event.error) ?? SUBSCRIPTION_CREATE_FAILED }),
        },
      },
    },
    saved: { description: 'Created: the form closes with the success toast.', type: 'final' },
    cancelled: { description: 'Closed without creating anything.', type: 'final' },
  },
  output: ({ context }) => context.created,
});

export type SubscriptionFormMachine = typeof subscriptionFormMachine;
