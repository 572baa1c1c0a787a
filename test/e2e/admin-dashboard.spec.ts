import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { Dashboard } from '../../contract/usage-reports';
import { USER_REPORT_COLUMNS, USER_REPORT_HEADERS } from '../../contract/usage-reports-constants';
import { accounts, password, signInAndLand } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import { seededConversation } from './helpers/seed';
import { errorEnvelope, unique } from './paths/paths-support';

/**
 * The admin dashboard on /home (administration spec section 2): the Usage Summary tab after a chat exchange of the
 * demo user (seeded with its usage entry, test/e2e/helpers/seed.ts), and the Reports tab's filters, sort, page size,
 * export and reset. Other specs chat on the same server at the same time, so counts are compared with what the
 * server said just before, never with fixed numbers.
 */

const NUR = 'Nur User';
const tab = (page: Page, name: string) => page.getByRole('tab', { name });
const topUsers = (page: Page) => page.getByRole('table', { name: /^Top 5 Users/ });
const reportTable = (page: Page) => page.getByRole('table', { name: /^Report by/ });

async function expectNoAxeViolationsLightAndDark(page: Page) {
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
}

async function adminToken(request: APIRequestContext) {
  const response = await request.post('/api/v1/auth/login', { data: { email: accounts.admin, password } });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: { access_token: string } }).data.access_token;
}

/** Nur User's queries this month, as a freshly computed dashboard says. */
async function nurQueries(request: APIRequestContext, token: string) {
  const response = await request.post('/api/v1/usage-logs/dashboard/generate', { headers: { Authorization: `Bearer ${token}` } });
  expect(response.ok()).toBe(true);
  const dashboard = ((await response.json()) as { data: Dashboard }).data;
  return dashboard.top5_user.find((u) => u.name === NUR)?.query_count ?? 0;
}

/** Picks options of a multi-select (its button is named by the label), then closes the list. */
async function choose(page: Page, label: string, options: string[]) {
  await page.getByRole('button', { name: new RegExp(label) }).click();
  for (const option of options) await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox')).toHaveCount(0);
}

test.describe('admin dashboard', () => {
  test('Usage Summary shows the chart, its table and the Top 5 after a chat exchange of a user', async ({ page, request }) => {
    test.slow();
    const before = await nurQueries(request, await adminToken(request));
    await seededConversation(request, unique('Dashboard question'));

    await signInAndLand(page, accounts.admin, /\/home$/);
    await expect(page.getByRole('heading', { name: 'Usage Dashboard', level: 1 })).toBeVisible();
    await expect(tab(page, 'Usage Summary')).toHaveAttribute('aria-selected', 'true');
    await expect(tab(page, 'Reports')).toBeVisible();
    await expect(page.getByText(/^Generated at /)).toBeVisible();

    // The stored dashboard may predate the exchange: Refresh computes it anew (keeping the old one on screen meanwhile).
    await page.getByRole('button', { name: 'Refresh' }).click();
    const nurRow = topUsers(page).getByRole('row').filter({ has: page.getByRole('rowheader', { name: NUR }) });
    await expect(nurRow).toBeVisible();
    await expect(nurRow.getByRole('cell')).toHaveText(['Engineering', 'Platform', /^\d+$/]);
    const shown = Number(await nurRow.getByRole('cell').last().textContent());
    expect(shown).toBeGreaterThanOrEqual(before + 1);
    await expect(page.getByRole('heading', { name: /^Top 3 Departments \(\w+ \d{4}\)$/ })).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: 'Engineering' })).toBeVisible();
    // The month's fair use (README "Fair use"): the demo subscription's 100 seats x fair use 100 x 1,000,000 tokens.
    await expect(page.getByRole('meter', { name: /^Fair use \(\w+ \d{4}\)$/ })).toBeVisible();
    await expect(page.getByText(/^[1-9][\d,]* of 10,000,000,000 tokens \(\d+(\.\d)?%\)$/)).toBeVisible();

    // The chart (loaded on demand), its tooltip, then the same numbers as a table.
    const chart = page.getByRole('img', { name: /^Monthly User Activity chart/ });
    await expect(chart).toBeVisible();
    // The y axis starts at 0.
    await expect(chart.locator('text').filter({ hasText: /^0$/ }).first()).toBeVisible();
    const box = (await chart.boundingBox())!;
    await page.mouse.move(box.x + box.width - 24, box.y + box.height / 2);
    await expect(page.getByText(/^Users: [1-9]\d*$/)).toBeVisible();
    await expectNoAxeViolationsLightAndDark(page);

    await page.getByRole('button', { name: 'Show as table' }).click();
    const monthly = page.getByRole('table', { name: 'Monthly User Activity' });
    await expect(monthly.getByRole('row')).toHaveCount(13);
    const currentMonth = monthly.getByRole('row').last();
    await expect(currentMonth.getByRole('cell')).toHaveText(/^[1-9]\d*$/);
    await expectNoAxeViolationsLightAndDark(page);
    await page.getByRole('button', { name: 'Show as chart' }).click();
    await expect(chart).toBeVisible();

    // A refresh that fails (stubbed): the spec's sentence and Retry, with the last dashboard still on screen.
    const generate = (url: URL) => url.pathname.endsWith('/api/v1/usage-logs/dashboard/generate');
    await page.route(generate, (route) => route.fulfill(errorEnvelope(500, 'Internal Server Error')));
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Failed to generate dashboard data' })).toBeVisible();
    await expect(nurRow).toBeVisible();
    await expectNoAxeViolations(page);
    await page.unroute(generate);
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('button', { name: 'Refresh' })).toBeVisible();
    await expect(page.getByText('Failed to generate dashboard data')).toHaveCount(0);
  });

  test('Reports: filters, Apply, sort, page size, Export CSV and Reset', async ({ page, request }) => {
    test.slow();
    await seededConversation(request, unique('Report question'));
    await signInAndLand(page, accounts.admin, /\/home$/);
    await tab(page, 'Reports').click();
    await expect(page.getByText('No report data')).toBeVisible();
    await expect(page.getByText('Apply filters above to generate a report.')).toBeVisible();
    await expectNoAxeViolationsLightAndDark(page);

    // Units wait for a department and offer only its units.
    const units = page.getByRole('button', { name: /Units/ });
    await expect(units).toBeDisabled();
    await page.getByRole('button', { name: /Report Type/ }).click();
    await page.getByRole('option', { name: 'Report by Users' }).click();
    await choose(page, 'Departments', ['Engineering']);
    await expect(units).toBeEnabled();
    await units.click();
    await expect(page.getByRole('option')).toHaveText(['Applications', 'Platform']);
    await page.getByRole('option', { name: 'Platform' }).click();
    await page.keyboard.press('Escape');
    // Months: Deselect All disables Apply (no month, no report), Select All brings them back.
    await page.getByRole('button', { name: 'Deselect All' }).click();
    await expect(page.getByRole('button', { name: 'Apply Filters' })).toBeDisabled();
    await page.getByRole('button', { name: 'Select All' }).click();
    await page.getByRole('button', { name: 'Apply Filters' }).click();

    const table = reportTable(page);
    await expect(table.getByRole('row').filter({ hasText: NUR })).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: NUR }).getByRole('cell').nth(1)).toHaveText(accounts.user);
    await expect(table.getByRole('columnheader')).toHaveText(USER_REPORT_COLUMNS.map((c) => USER_REPORT_HEADERS[c]));

    // Sort: the default is Queries, descending; a new column starts ascending, the same one toggles.
    await expect(table.getByRole('columnheader', { name: 'Queries', exact: true })).toHaveAttribute('aria-sort', 'descending');
    const userHeader = table.getByRole('columnheader', { name: 'User', exact: true });
    await userHeader.getByRole('button').click();
    await expect(userHeader).toHaveAttribute('aria-sort', 'ascending');
    await expect(table.getByRole('columnheader', { name: 'Queries', exact: true })).toHaveAttribute('aria-sort', 'none');
    await userHeader.getByRole('button').click();
    await expect(userHeader).toHaveAttribute('aria-sort', 'descending');

    // Page size.
    await page.getByRole('button', { name: /Rows per page/ }).click();
    await page.getByRole('option', { name: '20', exact: true }).click();
    await expect(page.getByRole('button', { name: /Rows per page/ })).toContainText('20');
    await expect(table.getByRole('row').filter({ hasText: NUR })).toBeVisible();
    await expectNoAxeViolationsLightAndDark(page);

    // Export CSV: the server's file name, the header row of human column names, the person's row.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`user-report-${new Date().getUTCFullYear()}.csv`);
    const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    expect(csv.split(/\r?\n/)[0]).toBe('User,Email,Department,Unit,Queries,Files,Tokens,Size (MB)');
    expect(csv).toContain(`${NUR},${accounts.user},Engineering,Platform,`);
    await expect(page.getByText('User report exported successfully')).toBeVisible();

    // Reset: the default filters, no results.
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect(page.getByText('Apply filters above to generate a report.')).toBeVisible();
    await expect(page.getByRole('button', { name: /Report Type/ })).toContainText('Report by Department');
    await expect(units).toBeDisabled();
  });
});
