import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { DepartmentList } from '../../contract/departments';
import { THEME_SAVE_FAILED } from '../../machines/session.machine';
import { isLocalServer, signIn } from './helpers/accounts';
import { activateByApi, activationPath, adminToken, codeOf, deactivateRegistered, registerPerson } from './helpers/activation';
import { expectNoAxeViolations } from './helpers/axe';

// The person's colour theme (issue 28): System, Light or Dark in the account popover, shown at once, kept with the
// person on the server (so another browser gets it at sign-in) and painted before the app starts on the next load.
// Each test has a person of its own: the demo accounts' theme is what every other spec's light/dark checks assume.

const PASSWORD = 'theme-choice-pw-1';
const registered: string[] = [];

/** A fresh, activated person of the demo organisation with a department (so no forced Profile step). */
async function newPerson(request: APIRequestContext): Promise<string> {
  const token = await adminToken(request);
  const email = `theme.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@demo.local`;
  const id = await registerPerson(request, token, email, 'Theme Person');
  registered.push(email);
  await activateByApi(request, codeOf(await activationPath(email)), PASSWORD);
  const headers = { Authorization: `Bearer ${token}` };
  const answer = await request.get('/api/v1/departments/', { headers });
  const list = ((await answer.json()) as { data: DepartmentList }).data.departments;
  const dept = list.find((d) => d.units.length > 0)!;
  const res = await request.patch(`/api/v1/users/${id}`, { headers, data: { department_id: dept.id, unit_id: dept.units[0]!.id } });
  expect(res.ok(), await res.text()).toBe(true);
  return email;
}

const openAccount = async (page: Page) => {
  await page.getByRole('button', { name: 'Account details' }).click();
  return page.getByRole('radiogroup', { name: 'Theme' });
};
/** Clicks a choice where a person would: its visible label (react-aria keeps the radio input itself hidden). */
const pick = (theme: Locator, name: string) => theme.getByText(name, { exact: true }).click();
const shownTheme = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme ?? 'system');
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const DARK_SURFACE = 'rgb(31, 41, 55)';
const LIGHT_SURFACE = 'rgb(249, 249, 249)';

// Registers people and reads their activation mail from the local server's outbox: a local run only, as
// registration.spec.ts (staging's outbox cannot be read).
if (isLocalServer) test.describe('theme choice', () => {
  test.afterEach(({ request }) => deactivateRegistered(request, registered));

  test('Dark is shown at once, survives a reload before the app starts, and follows the person to another browser', async ({ page, browser, request }) => {
    const email = await newPerson(request);
    await page.emulateMedia({ colorScheme: 'light' });
    await signIn(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/chat$/);
    expect(await bodyBackground(page)).toBe(LIGHT_SURFACE);

    const theme = await openAccount(page);
    await expect(theme.getByRole('radio', { name: 'System' })).toBeChecked();
    await pick(theme, 'Dark');
    await expect.poll(() => shownTheme(page)).toBe('dark');
    await expect.poll(() => bodyBackground(page)).toBe(DARK_SURFACE);
    await expectNoAxeViolations(page);

    // The next load is dark before any of the app's code runs: its scripts are refused here.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.reload();
    expect(await shownTheme(page)).toBe('dark');
    expect(await bodyBackground(page)).toBe(DARK_SURFACE);
    await page.unrouteAll({ behavior: 'ignoreErrors' });

    // Another browser (nothing cached) gets the choice from the server at sign-in.
    const other = await browser.newContext({ colorScheme: 'light' });
    const second = await other.newPage();
    await signIn(second, email, PASSWORD);
    await expect(second).toHaveURL(/\/chat$/);
    await expect.poll(() => shownTheme(second)).toBe('dark');
    await expect.poll(() => bodyBackground(second)).toBe(DARK_SURFACE);
    await other.close();
  });

  test('Light wins over a dark system, System follows it again, and the arrow keys move between the three', async ({ page, request }) => {
    const email = await newPerson(request);
    await page.emulateMedia({ colorScheme: 'dark' });
    await signIn(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/chat$/);
    await expect.poll(() => bodyBackground(page)).toBe(DARK_SURFACE);

    const theme = await openAccount(page);
    await pick(theme, 'Light');
    await expect.poll(() => bodyBackground(page)).toBe(LIGHT_SURFACE);
    await expectNoAxeViolations(page);

    // Keyboard: from Light, ArrowLeft picks System (the system is dark), ArrowRight twice picks Dark.
    await expect(theme.getByRole('radio', { name: 'Light' })).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(theme.getByRole('radio', { name: 'System' })).toBeChecked();
    await expect.poll(() => shownTheme(page)).toBe('system');
    await expect.poll(() => bodyBackground(page)).toBe(DARK_SURFACE);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(theme.getByRole('radio', { name: 'Dark' })).toBeChecked();

    // What the server keeps is the last choice.
    await expect
      .poll(async () => {
        const login = await request.post('/api/v1/auth/login', { data: { email, password: PASSWORD } });
        return ((await login.json()) as { data: { user: { theme: string } } }).data.user.theme;
      })
      .toBe('dark');
  });

  test('a choice the server does not keep is undone on screen and said', async ({ page, request }) => {
    const email = await newPerson(request);
    await page.emulateMedia({ colorScheme: 'light' });
    await signIn(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/chat$/);
    await page.route('**/api/v1/users/me/preferences?*', (route) => route.fulfill({ status: 500, json: { status: 'error', detail: 'down' } }));

    const theme = await openAccount(page);
    await pick(theme, 'Dark');
    await expect(page.getByText(THEME_SAVE_FAILED)).toBeVisible();
    await expect.poll(() => shownTheme(page)).toBe('system');
    await expect(theme.getByRole('radio', { name: 'System' })).toBeChecked();
    expect(await bodyBackground(page)).toBe(LIGHT_SURFACE);
  });
});
