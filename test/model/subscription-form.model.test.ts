import { describe, it } from 'vitest';
import { expect } from './support/expect';
import type { EventFrom, SnapshotFrom } from 'xstate';
import type { CreateSubscriptionRequest, PackageView, Subscription } from '../../contract/subscriptions';
import {
  EXPIRY_DATE_REQUIRED,
  EXPIRY_NOT_AFTER_START,
  FAIR_USE_INVALID,
  MAX_USERS_INVALID,
  PACKAGE_REQUIRED,
  START_DATE_REQUIRED,
  SUBSCRIPTION_CREATE_FAILED,
  SUBSCRIPTION_CREATED,
} from '../../contract/subscriptions-constants';
import { loadFailure } from '../../machines/load-failure';
import { notice, type Notice } from '../../machines/notice';
import {
  defaultSubscriptionValues,
  earliestStart,
  fromLocalInput,
  oneYearAfter,
  overlapError,
  subscriptionFormMachine,
  toLocalInput,
  toSubscriptionPayload,
  validateSubscription,
  visibleErrors,
  withFieldChange,
  type SubscriptionFormInput,
} from '../../machines/subscription-form.machine';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof subscriptionFormMachine>;
type Ev = EventFrom<typeof subscriptionFormMachine>;

const active = { start_date: '2026-11-27T16:45:00.000Z', expire_date: '2027-11-28T16:45:00.000Z' };
const now = '2026-11-28T12:00:30.000Z';
const packages: PackageView[] = [
  { id: 'pkg-std', type: 'standard', features: [] },
  { id: 'pkg-pre', type: 'premium', features: ['browsing'] },
];
const inside = toLocalInput(new Date('2027-06-01T10:00:00.000Z'));
const after = toLocalInput(new Date('2027-12-01T10:00:00.000Z'));
const overlapSentence = 'Start date overlaps with existing subscription period (2026-11-27 16:45 UTC - 2027-11-28 16:45 UTC)';
const refused = Object.assign(loadFailure('HTTP 400', overlapSentence), { status: 400 });
const dropped = loadFailure('Network Error', null);

const inputs: SubscriptionFormInput[] = [
  // A client with a subscription in force: the defaults start after it, and the banner shows.
  { clientId: 'c1', existing: [active], now },
];

let sent: CreateSubscriptionRequest[] = [];
let packageReads = 0;
let emitted: Notice[] = [];
let emittedSeen = 0;
let prev: Snap | null = null;
/** How many creations had been asked for before the step being checked. */
let sentBefore = 0;
let sentAfterPrev = 0;

const created = (req: CreateSubscriptionRequest): Subscription => ({
  id: 's2',
  client_id: req.client_id,
  package_id: req.package_id,
  package_name: 'standard',
  package: { type: 'standard', features: [], start_date: req.start_date, end_date: req.expire_date },
  max_users: req.max_users,
  fair_use: req.fair_use,
  start_date: req.start_date,
  expire_date: req.expire_date,
  status: 'upcoming',
  created_at: now,
});
const sample = created({ client_id: 'c1', package_id: 'pkg-std', max_users: 1, fair_use: 1, start_date: '2027-11-28T16:46:00.000Z', expire_date: '2028-11-28T16:46:00.000Z' });

function eventsFor(s: Snap): Ev[] {
  if (s.matches('loadingPackages')) {
    return [
      { type: 'xstate.done.actor.fetchPackages', output: packages, actorId: 'fetchPackages' },
      { type: 'xstate.error.actor.fetchPackages', error: dropped, actorId: 'fetchPackages' },
      { type: 'form.submit' },
    ] as Ev[];
  }
  if (s.matches('packagesFailed')) return [{ type: 'packages.retry' }, { type: 'form.cancel' }];
  if (s.matches('saving')) {
    return [
      { type: 'xstate.done.actor.createSubscription', output: sample, actorId: 'createSubscription' },
      { type: 'xstate.error.actor.createSubscription', error: refused, actorId: 'createSubscription' },
      { type: 'xstate.error.actor.createSubscription', error: dropped, actorId: 'createSubscription' },
      { type: 'form.cancel' },
    ] as Ev[];
  }
  if (s.matches('editing')) {
    return [
      { type: 'field.change', field: 'packageId', value: 'pkg-std' },
      { type: 'field.change', field: 'packageId', value: '' },
      { type: 'field.change', field: 'startDate', value: inside },
      { type: 'field.change', field: 'startDate', value: after },
      { type: 'field.change', field: 'maxUsers', value: '0' },
      { type: 'field.change', field: 'maxUsers', value: '5' },
      { type: 'form.submit' },
      { type: 'form.cancel' },
    ];
  }
  return [{ type: 'form.submit' }];
}

const check = (fn: (s: Snap, e: (Ev & { error?: unknown }) | null, p: Snap | null) => void) => (s: Snap, e: { type: string } | null) => {
  const p = prev;
  sentBefore = sentAfterPrev;
  const fresh = emitted.slice(emittedSeen);
  emittedSeen = emitted.length;
  expect(s.hasTag('busy')).toBe(s.matches('loadingPackages') || s.matches('saving'));
  expect(Boolean(s.children.fetchPackages)).toBe(s.matches('loadingPackages'));
  expect(Boolean(s.children.createSubscription)).toBe(s.matches('saving'));
  // The one toast: created.
  expect(fresh).toEqual(e?.type === 'xstate.done.actor.createSubscription' ? [notice('success', SUBSCRIPTION_CREATED)] : []);
  // Every step: the overlap sentence follows the typed dates at once, whether or not a submit was tried.
  expect(visibleErrors(s.context).overlap).toBe(overlapError(s.context.values, s.context.existing));
  fn(s, e as (Ev & { error?: unknown }) | null, p);
  prev = s;
  sentAfterPrev = sent.length;
};

runModelTest({
  name: 'subscription-form',
  machine: subscriptionFormMachine,
  testMachine: () =>
    subscriptionFormMachine.provide({
      actors: {
        fetchPackages: pendingActor<PackageView[], void>(() => packageReads++),
        createSubscription: pendingActor<Subscription, CreateSubscriptionRequest>((i) => sent.push(i)),
      },
    }),
  onActor: (actor) => {
    sent = [];
    sentBefore = 0;
    sentAfterPrev = 0;
    packageReads = 0;
    emitted = [];
    emittedSeen = 0;
    prev = null;
    actor.on('*', (ev) => emitted.push(ev as Notice));
  },
  inputs,
  events: eventsFor,
  key: (s) =>
    JSON.stringify([
      s.value,
      s.context.values.packageId,
      s.context.values.maxUsers,
      s.context.values.startDate === inside,
      s.context.submitted,
      s.context.serverError !== null,
    ]),
  simpleKey: (s) => JSON.stringify(s.value),
  edgeKeys: true,
  checks: {
    loadingPackages: check((_s, e, p) => {
      expect(packageReads).toBeGreaterThan(0);
      if (e?.type === 'packages.retry') expect(p!.matches('packagesFailed')).toBe(true);
    }),
    packagesFailed: check((s) => {
      expect(s.context.packages).toEqual([]);
    }),
    editing: check((s, e, p) => {
      expect(s.context.packages).toEqual(packages);
      if (e?.type === 'xstate.done.actor.fetchPackages') {
        // The defaults: the minute after the latest expiry (later than now), a one-year term, 1 and 1, no package.
        expect(s.context.values).toEqual(defaultSubscriptionValues([active], new Date(now)));
        expect(fromLocalInput(s.context.values.startDate)).toBe('2027-11-28T16:46:00.000Z');
        expect(fromLocalInput(s.context.values.expiryDate)).toBe('2028-11-28T16:46:00.000Z');
        expect(s.context.values).toMatchObject({ packageId: '', maxUsers: '1', fairUse: '1' });
        expect(visibleErrors(s.context)).toEqual({});
      }
      if (e?.type === 'field.change') {
        expect(s.context.values[e.field]).toBe(e.value);
        // A new start moves the expiry a year on while the expiry was not changed by hand (it never is here).
        expect(s.context.values.expiryDate).toBe(e.field === 'startDate' ? oneYearAfter(e.value) : p!.context.values.expiryDate);
        expect(s.context.touched).toContain(e.field);
        expect(s.context.serverError).toBeNull();
        // A changed field's message shows at once; an untouched one's only after a submit.
        expect(visibleErrors(s.context)[e.field]).toBe(validateSubscription(s.context.values, s.context.existing)[e.field]);
      }
      if (e?.type === 'form.submit') {
        // Refused before any call: every message shows.
        expect(Object.keys(validateSubscription(s.context.values, s.context.existing)).length).toBeGreaterThan(0);
        expect(s.context.submitted).toBe(true);
        expect(visibleErrors(s.context)).toEqual(validateSubscription(s.context.values, s.context.existing));
        expect(sent.length).toBe(sentBefore);
      }
      if (e?.type === 'xstate.error.actor.createSubscription') {
        // The server's sentence inline (its overlap refusal), else the spec's; what was typed is kept.
        expect(s.context.serverError).toBe(e.error === refused ? overlapSentence : SUBSCRIPTION_CREATE_FAILED);
        expect(s.context.values).toEqual(p!.context.values);
      }
    }),
    saving: check((s, e) => {
      if (e?.type === 'form.submit') {
        expect(sent.at(-1)).toEqual({ client_id: 'c1', ...toSubscriptionPayload(s.context.values) });
        expect(sent.at(-1)).toMatchObject({ package_id: 'pkg-std', fair_use: 1 });
        expect(validateSubscription(s.context.values, s.context.existing)).toEqual({});
      }
    }),
    saved: check((s) => {
      expect(s.status).toBe('done');
      expect(s.output).toEqual(sample);
    }),
    cancelled: check((s) => {
      expect(s.status).toBe('done');
      expect(s.output).toBeNull();
      expect(sent.length).toBe(sentBefore);
    }),
  },
});

describe('subscription rules (examples)', () => {
  const at = new Date('2026-11-28T12:00:30.000Z');

  it('starts after the latest expiry but never before now (the current minute), with a one-year term', () => {
    expect(earliestStart([], at).toISOString()).toBe('2026-11-28T12:00:00.000Z');
    const expired = { start_date: '2025-01-01T00:00:00.000Z', expire_date: '2025-12-31T00:00:00.000Z' };
    expect(earliestStart([expired], at).toISOString()).toBe('2026-11-28T12:00:00.000Z');
    expect(earliestStart([expired, active], at).toISOString()).toBe('2027-11-28T16:46:00.000Z');
    // An expiry inside a minute: the next whole minute, after it.
    expect(earliestStart([{ ...active, expire_date: '2027-11-28T16:45:59.999Z' }], at).toISOString()).toBe('2027-11-28T16:46:00.000Z');
    const start = toLocalInput(new Date('2027-03-01T09:30:00.000Z'));
    expect(fromLocalInput(oneYearAfter(start))).toBe('2028-03-01T09:30:00.000Z');
    expect(oneYearAfter('')).toBe('');
    // The expiry follows a changed start until it was changed by hand; an unfinished start leaves it.
    const values = defaultSubscriptionValues([], at);
    expect(withFieldChange(values, 'startDate', start, false).expiryDate).toBe(oneYearAfter(start));
    expect(withFieldChange(values, 'startDate', start, true).expiryDate).toBe(values.expiryDate);
    expect(withFieldChange(values, 'startDate', '', false)).toEqual({ ...values, startDate: '' });
  });

  it('words the three overlaps as the spec, with the existing period in UTC', () => {
    const values = defaultSubscriptionValues([active], at);
    expect(overlapError(values, [active])).toBeUndefined();
    expect(overlapError({ ...values, startDate: inside }, [active])).toBe(overlapSentence);
    const before = toLocalInput(new Date('2026-10-01T00:00:00.000Z'));
    expect(overlapError({ ...values, startDate: before, expiryDate: inside }, [active])).toBe(
      'End date overlaps with existing subscription period (2026-11-27 16:45 UTC - 2027-11-28 16:45 UTC)',
    );
    expect(overlapError({ ...values, startDate: before, expiryDate: after }, [active])).toBe(
      'Subscription dates completely overlap with existing subscription period (2026-11-27 16:45 UTC - 2027-11-28 16:45 UTC)',
    );
    // Touching ends overlap (periods are closed): a start at the very expiry is refused.
    expect(overlapError({ ...values, startDate: toLocalInput(new Date(active.expire_date)) }, [active])).toBe(overlapSentence);
  });

  it('checks every field in the server words', () => {
    expect(validateSubscription({ packageId: '', maxUsers: '0', fairUse: '1.5', startDate: '', expiryDate: '' }, [])).toEqual({
      packageId: PACKAGE_REQUIRED,
      maxUsers: MAX_USERS_INVALID,
      fairUse: FAIR_USE_INVALID,
      startDate: START_DATE_REQUIRED,
      expiryDate: EXPIRY_DATE_REQUIRED,
    });
    const values = { ...defaultSubscriptionValues([], at), packageId: 'pkg-std' };
    expect(validateSubscription(values, [])).toEqual({});
    expect(validateSubscription({ ...values, expiryDate: values.startDate }, []).expiryDate).toBe(EXPIRY_NOT_AFTER_START);
    expect(toSubscriptionPayload({ ...values, maxUsers: '3', fairUse: '2' })).toMatchObject({ package_id: 'pkg-std', max_users: 3, fair_use: 2 });
  });
});
