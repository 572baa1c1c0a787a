import { expect, test, type Page } from '@playwright/test';
import { createActor } from 'xstate';
import {
  PACKAGES_LOAD_FAILED,
  SUBSCRIPTION_CREATE_FAILED,
  SUBSCRIPTION_CREATED,
} from '../../../contract/subscriptions-constants';
import type { CreateSubscriptionRequest, PackageView, Subscription } from '../../../contract/subscriptions';
import { earliestStart, oneYearAfter, toLocalInput, visibleErrors, type SubscriptionField } from '../../../machines/subscription-form.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { pendingActor } from '../../model/support/fakes';
import { accounts, signInByApi } from '../helpers/accounts';
import { createDialog, detailsDialog, openFromClientsPage, PACKAGES, registerClient, SUBSCRIPTIONS, toast } from '../helpers/clients-area';
import { errorEnvelope, unique, type Step } from './paths-support';
import { afterOf, AFTER, insideOf, INSIDE, subscriptionFormMachine, subscriptionFormPaths as paths } from './subscription-form.paths-model';

/**
 * Create New Subscription's generated paths (machines/subscription-form.machine.ts, the model in
 * subscription-form.paths-model.ts), driven through the Clients page's View Details, Subscriptions tab. Each path
 * has a client of its own (registered through the API with a year's subscription from now), so the defaults and the
 * overlap sentence are known. The model runs beside the browser (fake actors): after every step the form shows
 * exactly the model's messages.
 *
 * Generated locally and against a deployment alike (E2E_BASE_URL), forced in the browser with stubs: the packages' read failing (500) and the creation's
 * connection dropped.
 */
const LABELS: Record<SubscriptionField, string> = {
  packageId: 'Package',
  maxUsers: 'Maximum Users',
  fairUse: 'Fair Use',
  startDate: 'Start Date',
  expiryDate: 'Expiry Date',
};

interface Run {
  page: Page;
  client: string;
  start: number;
  model: ReturnType<typeof shadow>;
}

/** The model beside the browser: the same events, fake actors that never answer by themselves. */
function shadow(input: (typeof paths)[number]['input']) {
  const actor = createActor(
    subscriptionFormMachine.provide({
      actors: {
        fetchPackages: pendingActor<PackageView[], void>(),
        createSubscription: pendingActor<Subscription, CreateSubscriptionRequest>(),
      },
    }),
    { input },
  );
  actor.start();
  return actor;
}

/** The form shows the model's messages: each field's, and the overlap sentence (its dates are the test client's). */
async function expectMessages(run: Run) {
  const dialog = createDialog(run.page);
  const errors = visibleErrors(run.model.getSnapshot().context);
  const all = visibleErrors({ ...run.model.getSnapshot().context, submitted: true });
  for (const field of Object.keys(LABELS) as SubscriptionField[]) {
    const text = all[field];
    if (text) await expect(dialog.getByText(text, { exact: true })).toHaveCount(errors[field] ? 1 : 0);
  }
  await expect(dialog.getByText('Start date overlaps with existing subscription period')).toHaveCount(errors.overlap ? 1 : 0);
}

async function perform(run: Run, event: Step, next: Step | undefined) {
  const { page } = run;
  const dialog = createDialog(page);
  switch (event.type) {
    case 'xstate.done.actor.fetchPackages': {
      // The defaults: the minute after the client's expiry, a year's term, 1 and 1, no package.
      const start = toLocalInput(earliestStart([{ start_date: new Date(run.start).toISOString(), expire_date: new Date(run.start + 365 * 86_400_000).toISOString() }], new Date()));
      await expect(dialog.getByLabel('Start Date')).toHaveValue(start);
      await expect(dialog.getByLabel('Expiry Date')).toHaveValue(oneYearAfter(start));
      await expect(dialog.getByLabel('Maximum Users')).toHaveValue('1');
      await expect(dialog.getByLabel('Fair Use')).toHaveValue('1');
      await expect(dialog.getByText('This client already has a subscription.', { exact: false })).toBeVisible();
      break;
    }
    case 'xstate.error.actor.fetchPackages':
      await expect(dialog.getByText(PACKAGES_LOAD_FAILED)).toBeVisible();
      await page.unroute(PACKAGES);
      break;
    case 'packages.retry':
      if (next?.type === 'xstate.error.actor.fetchPackages') await page.route(PACKAGES, (r) => r.fulfill(errorEnvelope(500, 'Internal Server Error')));
      await dialog.getByRole('button', { name: 'Try again' }).click();
      break;
    case 'form.cancel':
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(detailsDialog(page, run.client)).toBeVisible();
      break;
    case 'field.change': {
      const field = event.field as SubscriptionField;
      if (field === 'packageId') {
        await dialog.getByRole('button', { name: /Package/ }).click();
        await page.getByRole('option', { name: 'Standard' }).click();
      } else {
        const value = event.value === INSIDE ? insideOf(run.start) : event.value === AFTER ? afterOf(run.start) : (event.value as string);
        await dialog.getByLabel(LABELS[field]).fill(value);
      }
      break;
    }
    case 'form.submit':
      if (next?.type === 'xstate.error.actor.createSubscription') {
        await page.route(SUBSCRIPTIONS, (r) => (r.request().method() === 'POST' ? r.abort('connectionreset') : r.fallback()));
      }
      await dialog.getByRole('button', { name: 'Create Subscription' }).click();
      break;
    case 'xstate.done.actor.createSubscription': {
      await expect(toast(page, SUBSCRIPTION_CREATED).first()).toBeVisible();
      await expect(dialog).toHaveCount(0);
      // The history read again: the new one, Upcoming, beside the one in force.
      const history = detailsDialog(page, run.client).getByRole('table', { name: 'Subscription History' });
      await expect(history.getByRole('rowheader', { name: 'Upcoming' })).toHaveCount(1);
      await expect(history.getByRole('rowheader', { name: 'Active' })).toHaveCount(1);
      break;
    }
    case 'xstate.error.actor.createSubscription':
      await expect(dialog.getByText(SUBSCRIPTION_CREATE_FAILED)).toBeVisible();
      await page.unroute(SUBSCRIPTIONS);
      break;
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
  run.model.send(event as never);
  if (run.model.getSnapshot().matches('editing')) await expectMessages(run);
}

test.describe('subscription-form paths (generated from machines/subscription-form.machine.ts)', () => {
  test.afterAll(() => {
    console.log(formatCoverage('subscription-form (e2e paths)', coverageOf(subscriptionFormMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    test(path.description, async ({ page }) => {
      const client = unique('Subs Client');
      const { start } = await registerClient(page.request, client);
      await signInByApi(page, accounts.superuser);
      await openFromClientsPage(page, client, 'View Details');
      const details = detailsDialog(page, client);
      await details.getByRole('tab', { name: 'Subscriptions' }).click();
      if (path.events[0]?.type === 'xstate.error.actor.fetchPackages') {
        await page.route(PACKAGES, (r) => r.fulfill(errorEnvelope(500, 'Internal Server Error')));
      }
      await details.getByRole('button', { name: 'Create New Subscription' }).click();
      await expect(createDialog(page)).toBeVisible();
      const run: Run = { page, client, start, model: shadow(path.input) };
      for (let i = 0; i < path.events.length; i++) await perform(run, path.events[i]!, path.events[i + 1]);
      run.model.stop();
    });
  }
});
