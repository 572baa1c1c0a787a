import type { SnapshotFrom } from 'xstate';
import type { PackageView, Subscription } from '../../../contract/subscriptions';
import { subscriptionFormMachine, toLocalInput, type SubscriptionFormInput } from '../../../machines/subscription-form.machine';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof subscriptionFormMachine>;

/**
 * The model's client: one subscription from T0 for a year (as the test's client, registered through the API just
 * before, has from now). The browser types its own dates for the two the model names: INSIDE (a day into the
 * existing period: the start overlaps) and AFTER (a day after its expiry: free).
 */
const T0 = Date.parse('2026-11-28T12:00:00.000Z');
const YEAR = 365 * 24 * 3600 * 1000;
const DAY = 24 * 3600 * 1000;
export const existingOf = (start: number) => ({ start_date: new Date(start).toISOString(), expire_date: new Date(start + YEAR).toISOString() });
export const insideOf = (start: number) => toLocalInput(new Date(start + DAY));
export const afterOf = (start: number) => toLocalInput(new Date(start + YEAR + DAY));
export const INSIDE = insideOf(T0);
export const AFTER = afterOf(T0);
/** The package the person picks (the browser picks the one of this type). */
export const PICKED = 'standard';

const input: SubscriptionFormInput = { clientId: 'c1', existing: [existingOf(T0)], now: new Date(T0 + 60_000).toISOString() };
const packages: PackageView[] = [{ id: PICKED, type: PICKED, features: [] }];

/**
 * The person picks a package, types an overlapping or a free start, makes Maximum Users 0, presses Create
 * Subscription or Cancel; the server lists the packages and creates the subscription (or, with a stub, fails).
 * Not generated: what the view does not offer while busy (the buttons wait), and anything after the form closed.
 */
function eventsFor(s: Snap): Step[] {
  switch (valueName(s.value)) {
    case 'loadingPackages':
      return [
        { type: 'xstate.done.actor.fetchPackages', output: packages, actorId: 'fetchPackages' },
        { type: 'xstate.error.actor.fetchPackages', error: new Error('HTTP 500'), actorId: 'fetchPackages' },
      ];
    case 'packagesFailed':
      return [{ type: 'packages.retry' }, { type: 'form.cancel' }];
    case 'editing':
      return [
        { type: 'field.change', field: 'packageId', value: PICKED },
        { type: 'field.change', field: 'startDate', value: INSIDE },
        { type: 'field.change', field: 'startDate', value: AFTER },
        { type: 'field.change', field: 'maxUsers', value: '0' },
        { type: 'form.submit' },
        { type: 'form.cancel' },
      ];
    case 'saving':
      return [
        { type: 'xstate.done.actor.createSubscription', output: {} as Subscription, actorId: 'createSubscription' },
        { type: 'xstate.error.actor.createSubscription', error: new Error('Network Error'), actorId: 'createSubscription' },
      ];
    default:
      return [];
  }
}


const generated = maximalPaths({
  machine: subscriptionFormMachine,
  inputs: [input],
  events: eventsFor as never,
  key: (s) =>
    JSON.stringify([
      s.value,
      s.context.values.packageId !== '',
      s.context.values.maxUsers,
      s.context.values.startDate === INSIDE,
      s.context.submitted,
      s.context.serverError !== null,
    ]),
  simpleKey: (s) => JSON.stringify(s.value),
  edgeKeys: true,
});

export { subscriptionFormMachine };
export const subscriptionFormPaths = asSteps<SubscriptionFormInput>(coveringPaths(subscriptionFormMachine, generated));
