import { describe, it } from 'vitest';
import { expect } from './support/expect';
import type { EventFrom, SnapshotFrom } from 'xstate';
import type { Client } from '../../contract/clients';
import { CLIENT_DETAILS_FAILED } from '../../contract/clients-constants';
import type { CreateSubscriptionRequest, PackageView, Subscription } from '../../contract/subscriptions';
import { SUBSCRIPTION_CREATED, SUBSCRIPTIONS_FETCH_FAILED } from '../../contract/subscriptions-constants';
import { clientDetailsMachine, sortHistory, type ClientDetails, type ClientDetailsInput } from '../../machines/client-details.machine';
import { loadFailure } from '../../machines/load-failure';
import { notice, type Notice } from '../../machines/notice';
import { subscriptionFormMachine } from '../../machines/subscription-form.machine';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof clientDetailsMachine>;
type Ev = EventFrom<typeof clientDetailsMachine>;

const sub = (id: string, start_date: string, expire_date: string): Subscription => ({
  id,
  client_id: 'c1',
  package_id: 'pkg-pre',
  package_name: 'premium',
  package: { type: 'premium', features: ['browsing'], start_date, end_date: expire_date },
  max_users: 10,
  fair_use: 1,
  start_date,
  expire_date,
  status: 'active',
  created_at: '2026-01-01T00:00:00.000Z',
});
const current = sub('s1', '2026-11-27T16:45:00.000Z', '2027-11-28T16:45:00.000Z');
const next = sub('s2', '2027-11-28T16:46:00.000Z', '2028-11-28T16:46:00.000Z');
const client: Client = {
  id: 'c1',
  client_name: 'Demo Organisation',
  contact_info: { email: 'admin@demo.local', phone: null },
  origin: 'http://localhost:8311',
  status: 'active',
  auth_type: 'email',
  client_type: 'corporate',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  subscription: current,
};
const first: ClientDetails = { client, subscriptions: [current] };
const again: ClientDetails = { client, subscriptions: [current, next] };
const dropped = loadFailure('Network Error', null);
const created = notice('success', SUBSCRIPTION_CREATED);

let loads: string[] = [];
let emitted: Notice[] = [];
let emittedSeen = 0;
let prev: Snap | null = null;

const inputs: ClientDetailsInput[] = [{ clientId: 'c1' }];

function eventsFor(s: Snap): Ev[] {
  if (s.matches('loading')) {
    return [
      { type: 'xstate.done.actor.loadDetails', output: first, actorId: 'loadDetails' },
      { type: 'xstate.error.actor.loadDetails', error: dropped, actorId: 'loadDetails' },
      { type: 'subscription.create' },
    ] as Ev[];
  }
  if (s.matches('failed')) return [{ type: 'details.retry' }, { type: 'subscription.create' }];
  if (s.matches({ ready: 'viewing' })) return [{ type: 'subscription.create' }, { type: 'details.retry' }];
  if (s.matches({ ready: 'creating' })) {
    return [
      created,
      { type: 'xstate.done.actor.subscriptionForm', output: next, actorId: 'subscriptionForm' },
      { type: 'xstate.done.actor.subscriptionForm', output: null, actorId: 'subscriptionForm' },
    ] as Ev[];
  }
  return [
    { type: 'xstate.done.actor.loadDetails', output: again, actorId: 'loadDetails' },
    { type: 'xstate.error.actor.loadDetails', error: dropped, actorId: 'loadDetails' },
    { type: 'subscription.create' },
  ] as Ev[];
}

const check = (fn: (s: Snap, e: (Ev & { error?: unknown; output?: unknown }) | null, p: Snap | null) => void) => (s: Snap, e: { type: string } | null) => {
  const p = prev;
  const fresh = emitted.slice(emittedSeen);
  emittedSeen = emitted.length;
  const busy = s.matches('loading') || s.matches({ ready: 'refreshing' });
  expect(s.hasTag('busy')).toBe(busy);
  expect(s.hasTag('error')).toBe(s.matches('failed'));
  expect(Boolean(s.children.loadDetails)).toBe(busy);
  expect(Boolean(s.children.subscriptionForm)).toBe(s.matches({ ready: 'creating' }));
  // Toasts: the form's passed on as they are; a failed read again says so.
  const expected: Notice[] = [];
  if (e?.type === 'notice.show') expected.push(created);
  if (e?.type === 'xstate.error.actor.loadDetails' && p?.matches({ ready: 'refreshing' })) expected.push(notice('error', SUBSCRIPTIONS_FETCH_FAILED));
  expect(fresh).toEqual(expected);
  if (e?.type === 'xstate.done.actor.loadDetails' || e?.type === 'xstate.error.actor.loadDetails') expect(loads.at(-1)).toBe('c1');
  fn(s, e as (Ev & { error?: unknown; output?: unknown }) | null, p);
  prev = s;
};

runModelTest({
  name: 'client-details',
  machine: clientDetailsMachine,
  testMachine: () =>
    clientDetailsMachine.provide({
      actors: {
        loadDetails: pendingActor<ClientDetails, { clientId: string }>((i) => loads.push(i.clientId)),
        subscriptionForm: subscriptionFormMachine.provide({
          actors: {
            fetchPackages: pendingActor<PackageView[], void>(),
            createSubscription: pendingActor<Subscription, CreateSubscriptionRequest>(),
          },
        }),
      },
    }),
  onActor: (actor) => {
    loads = [];
    emitted = [];
    emittedSeen = 0;
    prev = null;
    actor.on('*', (ev) => emitted.push(ev as Notice));
  },
  inputs,
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, s.context.details?.subscriptions.length ?? 0]),
  simpleKey: (s) => JSON.stringify(s.value),
  edgeKeys: true,
  checks: {
    loading: check((s, e, p) => {
      expect(s.context.details).toBeNull();
      if (e?.type === 'details.retry') expect(p!.matches('failed')).toBe(true);
    }),
    failed: check((s) => {
      expect(s.context.error).toBe(CLIENT_DETAILS_FAILED);
      expect(s.context.details).toBeNull();
    }),
    ready: check((s, e, p) => {
      expect(s.context.details).not.toBeNull();
      expect(s.context.error).toBeNull();
      if (s.matches({ ready: 'creating' })) {
        // The form checks against every subscription loaded, for this client.
        const form = s.children.subscriptionForm!.getSnapshot();
        expect(form.context.clientId).toBe('c1');
        expect(form.context.existing).toEqual(s.context.details!.subscriptions);
      }
      if (e?.type === 'xstate.done.actor.subscriptionForm') {
        // Created: read again; cancelled: back to the tabs, nothing read.
        expect(s.matches({ ready: e.output ? 'refreshing' : 'viewing' })).toBe(true);
      }
      if (e?.type === 'xstate.done.actor.loadDetails' && p?.matches({ ready: 'refreshing' })) expect(s.context.details).toEqual(again);
      // A failed read again keeps what was shown.
      if (e?.type === 'xstate.error.actor.loadDetails') expect(s.context.details).toEqual(p!.context.details);
    }),
  },
});

describe('client details (examples)', () => {
  it('orders the history Active, Upcoming, Expired, newest start first, the status read from the dates', () => {
    const now = new Date('2026-11-28T12:00:00.000Z');
    const old = sub('s0', '2024-01-01T00:00:00.000Z', '2024-12-31T00:00:00.000Z');
    const older = sub('s-1', '2023-01-01T00:00:00.000Z', '2023-12-31T00:00:00.000Z');
    const later = sub('s3', '2029-01-01T00:00:00.000Z', '2029-12-31T00:00:00.000Z');
    // The server's `status` says active for all of them: the dates decide.
    const rows = sortHistory([older, next, old, later, current], now);
    expect(rows.map((r) => [r.subscription.id, r.status])).toEqual([
      ['s1', 'active'],
      ['s3', 'upcoming'],
      ['s2', 'upcoming'],
      ['s0', 'expired'],
      ['s-1', 'expired'],
    ]);
  });
});
