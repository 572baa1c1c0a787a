import { expect, test, type Page } from '@playwright/test';
import { VERIFICATION_EMAIL_SENT } from '../../contract/registration-constants';
import {
  OWN_ROLE_UNCHANGEABLE,
  USER_NAME_REQUIRED,
  USER_STATUS_UPDATE_FAILED,
  USER_STATUS_UPDATED,
  USER_UPDATED,
  USERS_FETCH_FAILED,
} from '../../contract/users-constants';
import { USER_PAGE_SIZE } from '../../contract/users-constants';
import { USER_SEARCH_DEBOUNCE_MS } from '../../machines/users-admin.machine';
import { accounts, signInByApi } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import { UsersApi } from './helpers/users-api';
import { errorEnvelope, unique } from './paths/paths-support';

const USERS = (url: URL) => url.pathname.endsWith('/api/v1/users/');
const STATUS = (url: URL) => /\/api\/v1\/users\/[^/]+\/status$/.test(url.pathname);

const heading = (page: Page) => page.getByRole('heading', { name: 'User Management', level: 1 });
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search users' });
const rowHeaders = (page: Page) => page.getByRole('table', { name: 'Users' }).getByRole('rowheader');
const row = (page: Page, email: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader').filter({ hasText: email }) });
const statusSwitch = (page: Page, name: string) => page.getByRole('switch', { name: `Status of ${name}` });
const chip = (page: Page, name: string) => page.getByRole('radiogroup', { name: 'Filter by status' }).getByRole('radio', { name, exact: true });
const toast = (page: Page, text: string) => page.getByRole('alertdialog', { name: text });

async function expectNoAxeViolationsLightAndDark(page: Page) {
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Types a search and waits for its read: only after the spec's 2 s of quiet. */
async function search(page: Page, text: string) {
  const read = page.waitForResponse((r) => USERS(new URL(r.url())) && new URL(r.url()).searchParams.get('search') === text, {
    timeout: USER_SEARCH_DEBOUNCE_MS + 10_000,
  });
  const typed = Date.now();
  await searchBox(page).fill(text);
  await read;
  expect(Date.now() - typed).toBeGreaterThanOrEqual(USER_SEARCH_DEBOUNCE_MS - 100);
}

/** Switches a person's status from the keyboard (the switch's input is visually hidden under its label). */
async function toggle(page: Page, name: string) {
  await statusSwitch(page, name).focus();
  await page.keyboard.press('Space');
}

async function closeToast(page: Page, text: string) {
  await expect(toast(page, text).first()).toBeVisible();
  await toast(page, text).first().getByRole('button', { name: 'Close' }).click();
  await expect(toast(page, text)).toHaveCount(0);
}

test.describe('users', () => {
  test('the admin finds, filters, switches, edits people and resends their verification e-mail', async ({ page }) => {
    test.slow();
    await signInByApi(page, accounts.admin);
    const api = await UsersApi.of(page);
    const word = unique('Usr').replace(' ', '');
    try {
      const alpha = await api.register(`${word} Alpha`);
      const beta = await api.register(`${word} Beta`);
      const dept = await api.department(`${word}-Dept`, ['North', 'South']);

      await page.goto('/users');
      await expect(heading(page)).toBeVisible();
      await expect(page.getByRole('link', { name: 'Add New User' })).toHaveAttribute('href', /\/register\?role=user&client_id=.+/);
      await expect(rowHeaders(page).first()).toBeVisible();
      await expectNoAxeViolationsLightAndDark(page);

      // One's own row cannot be switched off (the server refuses it too).
      await search(page, accounts.admin);
      await expect(row(page, accounts.admin).getByRole('switch')).toBeDisabled();

      // Search by the test's word: its two people, each unverified and active.
      await search(page, word);
      await expect(rowHeaders(page)).toHaveCount(2);
      for (const p of [alpha, beta]) {
        await expect(row(page, p.email)).toContainText(p.name);
        await expect(row(page, p.email)).toContainText('Unverified');
        await expect(row(page, p.email)).toContainText('User');
        await expect(statusSwitch(page, p.name)).toBeChecked();
      }

      // Switching someone off asks first: Cancel sends nothing and leaves the row as it was.
      let sent = 0;
      const countSwitches = (request: import('@playwright/test').Request) => void (STATUS(new URL(request.url())) && sent++);
      page.on('request', countSwitches);
      await toggle(page, alpha.name);
      const confirm = page.getByRole('alertdialog', { name: 'Deactivate User' });
      await expect(confirm).toContainText(`${alpha.name} will no longer be able to sign in or use Tanya`);
      await expectNoAxeViolations(page);
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toHaveCount(0);
      await expect(statusSwitch(page, alpha.name)).toBeChecked();
      expect(sent).toBe(0);
      expect((await api.get(alpha)).status).toBe('active');
      page.off('request', countSwitches);

      // A switch whose connection drops leaves the row as it was, with the spec's toast.
      await page.route(STATUS, (route) => route.abort('connectionfailed'));
      await toggle(page, alpha.name);
      await confirm.getByRole('button', { name: 'Deactivate' }).click();
      await closeToast(page, USER_STATUS_UPDATE_FAILED);
      await expect(statusSwitch(page, alpha.name)).toBeChecked();
      await page.unroute(STATUS);

      // Alpha switched off: only after the server agrees; it lasts a reload.
      await toggle(page, alpha.name);
      await confirm.getByRole('button', { name: 'Deactivate' }).click();
      await closeToast(page, USER_STATUS_UPDATED);
      await expect(statusSwitch(page, alpha.name)).not.toBeChecked();
      await expect(row(page, alpha.email)).toContainText('Inactive');

      // The status chips.
      await chip(page, 'Active').click();
      await expect(rowHeaders(page)).toHaveCount(1);
      await expect(row(page, beta.email)).toBeVisible();
      await chip(page, 'Inactive').click();
      await expect(rowHeaders(page)).toHaveCount(1);
      await expect(row(page, alpha.email)).toBeVisible();
      await chip(page, 'All').click();
      await expect(rowHeaders(page)).toHaveCount(2);

      await page.reload();
      await expect(heading(page)).toBeVisible();
      await search(page, word);
      await expect(statusSwitch(page, alpha.name)).not.toBeChecked();
      // Switching someone on needs no confirmation.
      await toggle(page, alpha.name);
      await expect(confirm).toHaveCount(0);
      await expect(toast(page, USER_STATUS_UPDATED).first()).toBeVisible();
      await expect(statusSwitch(page, alpha.name)).toBeChecked();
      expect((await api.get(alpha)).status).toBe('active');
      // The focus stayed on the switch while the change ran: Space again asks to switch Alpha off.
      await expect(statusSwitch(page, alpha.name)).toBeFocused();
      await page.keyboard.press('Space');
      await expect(confirm).toBeVisible();
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toHaveCount(0);
      await closeToast(page, USER_STATUS_UPDATED);

      // Resend verification to an unverified (active) person.
      await row(page, alpha.email).getByRole('button', { name: `Resend verification email to ${alpha.name}` }).click();
      await closeToast(page, VERIFICATION_EMAIL_SENT);

      // Edit User: without a department, Update is disabled and so is Unit.
      await row(page, alpha.email).getByRole('button', { name: `Edit user ${alpha.name}` }).click();
      let dialog = page.getByRole('dialog', { name: 'Edit User' });
      await expect(dialog.getByRole('textbox', { name: 'Email' })).toHaveValue(alpha.email);
      await expect(dialog.getByRole('textbox', { name: 'Email' })).toHaveAttribute('readonly', '');
      await expect(dialog.getByRole('button', { name: 'Update' })).toBeDisabled();
      await expect(dialog.getByRole('button', { name: /Unit$/ })).toBeDisabled();
      await expectNoAxeViolationsLightAndDark(page);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toHaveCount(0);

      // Edit Beta: name (required), role, department and unit; the row shows the change.
      await row(page, beta.email).getByRole('button', { name: `Edit user ${beta.name}` }).click();
      dialog = page.getByRole('dialog', { name: 'Edit User' });
      const nameBox = dialog.getByRole('textbox', { name: 'Full Name' });
      await expect(nameBox).toHaveValue(beta.name);
      await dialog.getByRole('button', { name: /Department$/ }).click();
      await page.getByRole('option', { name: dept.name }).click();
      // The department has units: Update waits for one of them (administration spec section 5).
      await expect(dialog.getByRole('button', { name: 'Update' })).toBeDisabled();
      await dialog.getByRole('button', { name: /Unit$/ }).click();
      await page.getByRole('option', { name: 'North' }).click();
      await expect(dialog.getByRole('button', { name: 'Update' })).toBeEnabled();
      await nameBox.fill('   ');
      await dialog.getByRole('button', { name: 'Update' }).click();
      await expect(dialog.getByText(USER_NAME_REQUIRED)).toBeVisible();
      const renamed = `${word} Beta Renamed`;
      await nameBox.fill(renamed);
      await dialog.getByRole('button', { name: /Role$/ }).click();
      await page.getByRole('option', { name: 'Admin' }).click();
      await dialog.getByRole('button', { name: /Unit$/ }).click();
      await page.getByRole('option', { name: 'South' }).click();
      await expectNoAxeViolationsLightAndDark(page);
      await dialog.getByRole('button', { name: 'Update' }).click();
      await closeToast(page, USER_UPDATED);
      await expect(dialog).toHaveCount(0);
      await expect(row(page, beta.email)).toContainText(renamed);
      await expect(row(page, beta.email)).toContainText('Admin');
      const saved = await api.get(beta);
      expect(saved).toMatchObject({ name: renamed, role: 'admin', department_id: dept.id, unit_id: dept.units[1]!.id });

      // A new department clears the unit: the dialog shows the saved choice, then no unit after a change.
      await row(page, beta.email).getByRole('button', { name: `Edit user ${renamed}` }).click();
      await expect(dialog.getByRole('button', { name: /Department$/ })).toContainText(dept.name);
      await expect(dialog.getByRole('button', { name: /Unit$/ })).toContainText('South');
      await dialog.getByRole('button', { name: /Department$/ }).click();
      await page.getByRole('option', { name: 'Finance' }).click();
      await expect(dialog.getByRole('button', { name: /Unit$/ })).toContainText('Select a unit');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      // Cancel saves nothing.
      expect(await api.get(beta)).toMatchObject({ department_id: dept.id, unit_id: dept.units[1]!.id });

      // One's own role is not offered.
      await search(page, accounts.admin);
      await row(page, accounts.admin).getByRole('button', { name: /^Edit user/ }).click();
      await expect(dialog.getByRole('button', { name: /Role$/ })).toBeDisabled();
      await expect(dialog).toContainText(OWN_ROLE_UNCHANGEABLE);
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      // A failed read says so, and Try again reads it again.
      await page.route(USERS, (route) => route.fulfill(errorEnvelope(500, 'Internal Server Error')));
      await chip(page, 'Active').click();
      // A toast, and a banner on the page that stays until the list is read.
      await closeToast(page, USERS_FETCH_FAILED);
      const banner = page.getByRole('main').getByRole('alert').filter({ hasText: USERS_FETCH_FAILED });
      await expect(banner).toBeVisible();
      await page.unroute(USERS);
      await page.getByRole('button', { name: 'Try again' }).click();
      await expect(banner).toHaveCount(0);
      await expect(row(page, accounts.admin)).toBeVisible();

      // Nobody matches: the empty state.
      await search(page, `${word}-nobody`);
      await expect(page.getByText('No users found')).toBeVisible();
    } finally {
      await api.cleanUp();
    }
  });

  test('more than a page of people: page buttons', async ({ page }) => {
    test.slow();
    await signInByApi(page, accounts.admin);
    const api = await UsersApi.of(page);
    const word = unique('Pgs').replace(' ', '');
    try {
      for (let i = 1; i <= USER_PAGE_SIZE + 1; i++) await api.register(`${word} Person ${String(i).padStart(2, '0')}`);
      await page.goto('/users');
      await expect(heading(page)).toBeVisible();
      await search(page, word);
      await expect(rowHeaders(page)).toHaveCount(USER_PAGE_SIZE);
      const pager = page.getByRole('navigation', { name: 'Pagination' });
      await expect(pager.getByRole('button', { name: 'Page 2' })).toBeVisible();
      await pager.getByRole('button', { name: 'Page 2' }).click();
      await expect(rowHeaders(page)).toHaveCount(1);
      await expectNoAxeViolationsLightAndDark(page);
      await pager.getByRole('button', { name: 'Page 1' }).click();
      await expect(rowHeaders(page)).toHaveCount(USER_PAGE_SIZE);
    } finally {
      await api.cleanUp();
    }
  });

  test('a plain user is sent away from /users', async ({ page }) => {
    await signInByApi(page, accounts.user);
    await page.goto('/users');
    await expect(page).toHaveURL(/\/chat$/);
  });
});
