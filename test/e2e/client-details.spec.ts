import { expect, test, type Page } from '@playwright/test';
import { CLIENT_DETAILS_FAILED, CLIENT_USAGE_FETCH_FAILED } from '../../contract/clients-constants';
import type { ClientUsage } from '../../contract/clients';
import { SUBSCRIPTION_CREATED } from '../../contract/subscriptions-constants';
import { earliestStart, toLocalInput } from '../../machines/subscription-form.machine';
import { previousMonth, usageTitle, usageTotals, usd } from '../../machines/client-usage.machine';
import { accounts, signInByApi } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import {
  createDialog,
  detailsDialog,
  openFromClientsPage,
  packageIdOf,
  registerClient,
  superuserHeaders,
  toast,
} from './helpers/clients-area';
import { expectNoHorizontalOverflow, PHONE } from './helpers/phone-layout';
import { errorEnvelope, unique } from './paths/paths-support';

// Client Details (both tabs), Create New Subscription and Client Usage Analytics, reached through the Clients page as
// the superuser. Demo Organisation is only read; subscriptions are created for clients of each test's own.

const DEMO = 'Demo Organisation';
const YEAR = 365 * 24 * 3600 * 1000;
const DAY = 24 * 3600 * 1000;
const ONE_CLIENT = (url: URL) => /\/api\/v1\/clients\/[^/]+$/.test(url.pathname);
const CLIENT_USAGE = (url: URL) => /\/api\/v1\/usage-logs\/clients\/[^/]+\/departments$/.test(url.pathname);
const history = (page: Page, client: string) => detailsDialog(page, client).getByRole('table', { name: 'Subscription History' });

async function expectNoAxeViolationsLightAndDark(page: Page) {
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('Client Details', () => {
  test("the superuser reads Demo Organisation's information and subscriptions (axe light and dark, 390 px)", async ({ page }) => {
    await signInByApi(page, accounts.superuser);
    await openFromClientsPage(page, DEMO, 'View Details');
    const dialog = detailsDialog(page, DEMO);
    await expect(dialog.getByRole('tab', { name: 'Information', selected: true })).toBeVisible();
    for (const label of ['Client Name', 'Type', 'Email', 'Phone', 'Status', 'Authentication Type', 'Origin URL', 'Client ID', 'Created At', 'Updated At']) {
      await expect(dialog.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(dialog.getByText('Corporate', { exact: true })).toBeVisible();
    await expect(dialog.getByText('Active', { exact: true })).toBeVisible();
    await expect(dialog.getByRole('link', { name: /^https?:\/\// })).toBeVisible();
    await expectNoAxeViolationsLightAndDark(page);

    await dialog.getByRole('tab', { name: 'Subscriptions' }).click();
    await expect(dialog.getByRole('heading', { name: 'Current Subscription' })).toBeVisible();
    for (const label of ['Package Type', 'Features', 'Package Start', 'Package End', 'Max Users', 'Fair Use', 'Start Date', 'Expiry Date', 'Package ID']) {
      await expect(dialog.getByText(label, { exact: true }).first()).toBeVisible();
    }
    await expect(history(page, DEMO).getByRole('rowheader', { name: 'Active' })).toHaveCount(1);
    await expect(dialog.getByRole('button', { name: 'Create New Subscription' })).toBeVisible();
    await expectNoAxeViolationsLightAndDark(page);

    await page.setViewportSize(PHONE);
    await expectNoHorizontalOverflow(page);
    await dialog.getByRole('tab', { name: 'Information' }).click();
    await expectNoHorizontalOverflow(page);
  });

  test('creates a following subscription; an overlapping one is told as it is typed (axe light and dark), and refused by the server', async ({ page }) => {
    test.slow();
    const client = unique('Details Client');
    const { id, start, expire } = await registerClient(page.request, client);
    await signInByApi(page, accounts.superuser);
    await openFromClientsPage(page, client, 'View Details');
    const dialog = detailsDialog(page, client);
    await dialog.getByRole('tab', { name: 'Subscriptions' }).click();
    await expect(history(page, client).getByRole('rowheader')).toHaveCount(1);
    await dialog.getByRole('button', { name: 'Create New Subscription' }).click();
    const form = createDialog(page);
    await expect(form.getByText('This client already has a subscription.', { exact: false })).toBeVisible();
    const period = { start_date: new Date(start).toISOString(), expire_date: new Date(expire).toISOString() };
    await expect(form.getByLabel('Start Date')).toHaveValue(toLocalInput(earliestStart([period], new Date())));

    // Typed into the existing period: the sentence shows at once, before any submit.
    await form.getByLabel('Start Date').fill(toLocalInput(new Date(start + DAY)));
    const overlap = form.getByText('Start date overlaps with existing subscription period');
    await expect(overlap).toBeVisible();
    // Submitting anyway sends nothing: the package is still required too.
    await form.getByRole('button', { name: 'Create Subscription' }).click();
    await expect(form.getByText('Package selection is required')).toBeVisible();
    await expectNoAxeViolationsLightAndDark(page);

    // A start after the expiry: the sentence goes; created with the toast, and the history read again.
    await form.getByLabel('Start Date').fill(toLocalInput(new Date(expire + DAY)));
    await expect(overlap).toHaveCount(0);
    await form.getByRole('button', { name: /Package/ }).click();
    await page.getByRole('option', { name: 'Premium' }).click();
    await form.getByLabel('Maximum Users').fill('5');
    await form.getByRole('button', { name: 'Create Subscription' }).click();
    await expect(toast(page, SUBSCRIPTION_CREATED).first()).toBeVisible();
    await expect(form).toHaveCount(0);
    await expect(history(page, client).getByRole('rowheader')).toHaveCount(2);
    const upcoming = history(page, client).getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Upcoming' }) });
    await expect(upcoming.getByRole('cell').filter({ hasText: 'Premium' })).toHaveCount(1);
    await expect(upcoming.getByRole('cell', { name: '5', exact: true })).toHaveCount(1);

    // The next form starts after the new one. Someone else takes that period meanwhile: the server refuses, and
    // its sentence shows inline.
    await dialog.getByRole('button', { name: 'Create New Subscription' }).click();
    const all = await page.request.get(`/api/v1/subscriptions/?client_id=${id}&limit=100`, { headers: await superuserHeaders(page.request) });
    const periods = ((await all.json()) as { data: { subscriptions: Array<{ start_date: string; expire_date: string }> } }).data.subscriptions;
    expect(periods).toHaveLength(2);
    const nextStart = earliestStart(periods, new Date()).getTime();
    await expect(form.getByLabel('Start Date')).toHaveValue(toLocalInput(new Date(nextStart)));
    const taken = await page.request.post('/api/v1/subscriptions/', {
      headers: await superuserHeaders(page.request),
      data: {
        client_id: id,
        package_id: await packageIdOf(page.request, 'standard'),
        max_users: 1,
        fair_use: 1,
        start_date: new Date(nextStart).toISOString(),
        expire_date: new Date(nextStart + YEAR).toISOString(),
      },
    });
    expect(taken.ok()).toBe(true);
    await form.getByRole('button', { name: /Package/ }).click();
    await page.getByRole('option', { name: 'Standard' }).click();
    await form.getByRole('button', { name: 'Create Subscription' }).click();
    await expect(form.getByRole('alert').filter({ hasText: /^Start date overlaps with existing subscription period \(.+ UTC - .+ UTC\)$/ })).toBeVisible();
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect(form).toHaveCount(0);
  });

  test("'Failed to load client details' and 'Failed to fetch client usage', each with Try again", async ({ page }) => {
    await signInByApi(page, accounts.superuser);
    await page.route(ONE_CLIENT, (r) => (r.request().method() === 'GET' ? r.fulfill(errorEnvelope(500, 'Internal Server Error')) : r.fallback()));
    await openFromClientsPage(page, DEMO, 'View Details');
    const dialog = detailsDialog(page, DEMO);
    await expect(dialog.getByText(CLIENT_DETAILS_FAILED)).toBeVisible();
    await page.unroute(ONE_CLIENT);
    await dialog.getByRole('button', { name: 'Try again' }).click();
    await expect(dialog.getByRole('tab', { name: 'Information' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect(dialog).toHaveCount(0);

    await page.route(CLIENT_USAGE, (r) => r.abort('connectionreset'));
    await page.getByRole('row').filter({ hasText: DEMO }).getByRole('button', { name: 'View Usage' }).click();
    const usage = page.getByRole('dialog', { name: usageTitle(previousMonth(new Date())) });
    await expect(usage.getByText(CLIENT_USAGE_FETCH_FAILED)).toBeVisible();
    await page.unroute(CLIENT_USAGE);
    await usage.getByRole('button', { name: 'Try again' }).click();
    await expect(usage.getByText(CLIENT_USAGE_FETCH_FAILED)).toHaveCount(0);
  });
});

test.describe('Client Usage Analytics', () => {
  test("last month's usage of Demo Organisation: totals over its departments (axe light and dark, 390 px)", async ({ page }) => {
    const month = previousMonth(new Date());
    const answer = await page.request.get(
      `/api/v1/usage-logs/clients/${await demoId(page)}/departments?year=${month.year}&month=${String(month.month).padStart(2, '0')}`,
      { headers: await superuserHeaders(page.request) },
    );
    const departments = ((await answer.json()) as { data: ClientUsage }).data.departments;
    const totals = usageTotals(departments);

    await signInByApi(page, accounts.superuser);
    await openFromClientsPage(page, DEMO, 'View Usage');
    const dialog = page.getByRole('dialog', { name: usageTitle(month) });
    await expect(dialog).toBeVisible();
    for (const [label, value] of [
      ['Total Requests', totals.requests.toLocaleString('en-US')],
      ['Total Tokens', totals.tokens.toLocaleString('en-US')],
      ['Total Cost', usd(totals.cost)],
    ] as const) {
      await expect(dialog.getByRole('definition').filter({ has: page.locator(`xpath=preceding-sibling::dt[.="${label}"]`) })).toHaveText(value);
    }
    const table = dialog.getByRole('table', { name: 'Usage by department' });
    if (departments.length > 0) await expect(table.getByRole('rowheader')).toHaveText(departments.map((d) => d.department_name));
    else await expect(dialog.getByText('No usage in this month')).toBeVisible();
    await expectNoAxeViolationsLightAndDark(page);
    await page.setViewportSize(PHONE);
    await expectNoHorizontalOverflow(page);
  });
});

async function demoId(page: Page): Promise<string> {
  const answer = await page.request.get(`/api/v1/clients/?search=${encodeURIComponent(DEMO)}`, { headers: await superuserHeaders(page.request) });
  return ((await answer.json()) as { data: { clients: Array<{ id: string; client_name: string }> } }).data.clients.find((c) => c.client_name === DEMO)!.id;
}
