import { assign, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import type { Client } from '../contract/clients';
import { CLIENT_DETAILS_FAILED } from '../contract/clients-constants';
import type { Subscription } from '../contract/subscriptions';
import { SUBSCRIPTIONS_FETCH_FAILED } from '../contract/subscriptions-constants';
import { subscriptionStatusAt, type SubscriptionStatus } from '../shared/subscription-periods';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { report } from './report';
import { subscriptionFormMachine } from './subscription-form.machine';

/**
 * The Client Details modal (administration spec sections 2, 4, 7, 8): one client's information and subscriptions.
 *
 * `loading` (tag `busy`): the client with its current subscription and every page of its subscriptions
 * (`loadDetails`) -> `ready`, or `failed` ('Failed to load client details', Try again: `details.retry`).
 * `ready.viewing`: both tabs shown. `subscription.create` -> `ready.creating`: Create New Subscription
 * (machines/subscription-form.machine.ts, invoked as `subscriptionForm` with all the subscriptions loaded); its toasts
 * pass through. Created -> `ready.refreshing` (tag `busy`): the client and its subscriptions read again while the
 * old ones stay shown, then `ready.viewing`; a failed read keeps the old ones with the toast 'Failed to fetch client
 * subscriptions'. Cancelled -> `ready.viewing`.
 */

export interface ClientDetails {
  client: Client;
  /** Every subscription of the client, all pages. */
  subscriptions: Subscription[];
}

export interface ClientDetailsInput {
  clientId: string;
}

export interface ClientDetailsContext extends ClientDetailsInput {
  details: ClientDetails | null;
  error: string | null;
}

export type ClientDetailsEvent =
  | { type: 'details.retry' }
  | { type: 'subscription.create' }
  | Notice
  | DoneActorEvent<ClientDetails, 'loadDetails'>
  | ErrorActorEvent<unknown, 'loadDetails'>
  | DoneActorEvent<Subscription | null, 'subscriptionForm'>
  | ErrorActorEvent<unknown, 'subscriptionForm'>;

const STATUS_RANK: Record<SubscriptionStatus, number> = { active: 0, upcoming: 1, expired: 2 };

/** The history as the spec orders it: status derived from the dates at `now`, Active, Upcoming, Expired, newest start first. */
export function sortHistory(subscriptions: readonly Subscription[], now: Date): { subscription: Subscription; status: SubscriptionStatus }[] {
  return subscriptions
    .map((subscription) => ({ subscription, status: subscriptionStatusAt(subscription, now) }))
    .sort(
      (a, b) =>
        STATUS_RANK[a.status] - STATUS_RANK[b.status] ||
        Date.parse(b.subscription.start_date) - Date.parse(a.subscription.start_date),
    );
}

export const clientDetailsMachine = setup({
  types: {
    context: {} as ClientDetailsContext,
    events: {} as ClientDetailsEvent,
    input: {} as ClientDetailsInput,
    emitted: {} as Notice,
    tags: {} as 'busy' | 'error',
    children: {} as { loadDetails: 'loadDetails'; subscriptionForm: 'subscriptionForm' },
  },
  actors: {
    loadDetails: notProvided<ClientDetails, { clientId: string }>('loadDetails'),
    subscriptionForm: subscriptionFormMachine,
  },
  guards: {
    created: ({ event }) => (event as DoneActorEvent<Subscription | null>).output != null,
  },
  actions: {
    show: assign({ details: ({ event }) => (event as DoneActorEvent<ClientDetails>).output, error: null }),
    passOn: report(({ event }: { event: Notice }) => event),
    reportRefreshFailed: report(() => notice('error', SUBSCRIPTIONS_FETCH_FAILED)),
  },
}).createMachine({
  id: 'clientDetails',
  context: ({ input }) => ({ ...input, details: null, error: null }),
  initial: 'loading',
  on: { 'notice.show': { actions: 'passOn' } },
  states: {
    loading: {
      description: 'The client and its subscriptions are being read.',
      tags: ['busy'],
      invoke: {
        id: 'loadDetails',
        src: 'loadDetails',
        input: ({ context }) => ({ clientId: context.clientId }),
        onDone: { target: 'ready', actions: 'show' },
        onError: { target: 'failed', actions: assign({ error: CLIENT_DETAILS_FAILED }) },
      },
    },
    failed: {
      description: "The client could not be read: 'Failed to load client details' with Try again.",
      tags: ['error'],
      on: { 'details.retry': 'loading' },
    },
    ready: {
      description: 'The client and its subscriptions are read: the tabs, and Create New Subscription over them.',
      initial: 'viewing',
      states: {
        viewing: {
          description: 'The Information and Subscriptions tabs.',
          on: { 'subscription.create': 'creating' },
        },
        creating: {
          description: 'Create New Subscription is open over the details.',
          invoke: {
            id: 'subscriptionForm',
            src: 'subscriptionForm',
            input: ({ context, self }) => ({
              clientId: context.clientId,
              existing: context.details?.subscriptions ?? [],
              now: new Date().toISOString(),
              parent: self,
            }),
            onDone: [{ guard: 'created', target: 'refreshing' }, { target: 'viewing' }],
          },
        },
        refreshing: {
          description: 'A subscription was created: the current one and the history are read again, the old ones still shown.',
          tags: ['busy'],
          invoke: {
            id: 'loadDetails',
            src: 'loadDetails',
            input: ({ context }) => ({ clientId: context.clientId }),
            onDone: { target: 'viewing', actions: 'show' },
            onError: { target: 'viewing', actions: 'reportRefreshFailed' },
          },
        },
      },
    },
  },
});

export type ClientDetailsMachine = typeof clientDetailsMachine;
