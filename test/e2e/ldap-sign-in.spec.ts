import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { LDAP_DIRECTORY_DOWN, LDAP_SETTINGS_DELETED, LDAP_SETTINGS_SAVED, LDAP_TEMPLATE_PLACEHOLDER } from '../../contract/ldap-settings-constants';
import { closedDirectoryUrl, PEOPLE_DN, startSlapd, type Slapd } from '../server/helpers/slapd';
import { accounts, isLocalServer, signInByApi } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import { packageIdOf, superuserHeaders } from './helpers/clients-area';
import { expectNoHorizontalOverflow, PHONE } from './helpers/phone-layout';
import { unique } from './paths/paths-support';

// A premium client whose people sign in against its own directory: the superuser sets the directory up on the
// Clients page, then a person of the directory signs in on /login with their directory password. The directory is
// a real slapd started by this file (test/server/helpers/slapd.ts), so this runs only against the local server.

test.skip(!isLocalServer, 'needs a directory the server can reach: the local slapd');

let slapd: Slapd;
test.beforeAll(async () => {
  slapd = await startSlapd();
});
test.afterAll(async () => {
  await slapd?.stop();
});

const dialog = (page: Page, client: string) => page.getByRole('dialog', { name: `Directory Settings - ${client}` });
const toast = (page: Page, text: string) => page.getByRole('alertdialog', { name: text });

/** A premium client with auth type ldap at `origin`. */
async function registerDirectoryClient(request: APIRequestContext, origin: string, name: string) {
  const headers = await superuserHeaders(request);
  const start = Date.now() - 60_000;
  const answer = await request.post('/api/v1/clients/register', {
    headers,
    data: {
      client_data: { client_name: name, contact_info: { email: `it-${Date.now()}@directory.example.com` }, origin, auth_type: 'ldap' },
      subscription_data: {
        package_id: await packageIdOf(request, 'premium'),
        max_users: 5,
        fair_use: 5,
        start_date: new Date(start).toISOString(),
        expire_date: new Date(start + 365 * 86_400_000).toISOString(),
      },
    },
  });
  expect(answer.ok(), `client registration: ${answer.status()} ${await answer.text()}`).toBe(true);
}

async function openDirectorySettings(page: Page, client: string) {
  await page.goto('/clients');
  await page.getByPlaceholder('Search clients by name or email...').fill(client);
  const row = page.getByRole('row').filter({ hasText: client });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: `Directory Settings for ${client}` }).click();
  await expect(dialog(page, client).getByLabel('Directory URL')).toBeVisible();
}

test('the superuser sets up a directory; its person signs in with the directory password, a wrong one and a down directory are told', async ({ page, browser, request, baseURL }) => {
  // Two people's pages, a directory set up three times: on 2 busy cores this takes longer than one page's test.
  test.slow();
  const client = unique('Directory Co');
  // The client's origin is the address the tests' browser uses: a new person is matched to it at sign-in.
  const origin = new URL(baseURL!).origin;
  const uid = `staff${Date.now().toString(36)}`;
  const email = `${uid}@directory.example.com`;
  await slapd.addPeople([{ uid, mail: email, password: 'directory-pass-9', displayName: 'Nurul Directory' }]);
  await registerDirectoryClient(request, origin, client);

  await signInByApi(page, accounts.superuser);
  await openDirectorySettings(page, client);
  const modal = dialog(page, client);
  await modal.getByLabel('Directory URL').fill(slapd.url);
  await modal.getByLabel('Bind DN Template').fill(`uid=fixed,${PEOPLE_DN}`);
  await modal.getByRole('button', { name: 'Save Settings' }).click();
  await expect(modal.getByText(LDAP_TEMPLATE_PLACEHOLDER)).toBeVisible();
  await modal.getByLabel('Bind DN Template').fill(`uid={username},${PEOPLE_DN}`);
  await expect(modal.getByText(LDAP_TEMPLATE_PLACEHOLDER)).toHaveCount(0);
  await modal.getByRole('button', { name: 'Save Settings' }).click();
  await expect(toast(page, LDAP_SETTINGS_SAVED).first()).toBeVisible();
  await expect(modal).toHaveCount(0);

  // Opened again, it shows what is stored.
  await openDirectorySettings(page, client);
  await expect(dialog(page, client).getByLabel('Directory URL')).toHaveValue(slapd.url);
  await expect(dialog(page, client).getByLabel('Bind DN Template')).toHaveValue(`uid={username},${PEOPLE_DN}`);
  await dialog(page, client).getByRole('button', { name: 'Cancel' }).click();

  // The person: not known to Tanya yet, signs in from the client's address with the directory's password.
  const person = await browser.newPage();
  await person.goto(`${origin}/login`);
  await person.getByLabel('Email').fill(email);
  await person.getByLabel('Password').fill('not-the-password');
  await person.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(person.getByText('Incorrect email or password')).toBeVisible();
  await person.getByLabel('Password').fill('directory-pass-9');
  await person.getByRole('button', { name: 'Sign in', exact: true }).click();
  // A new person has no department yet: the profile step comes first, with the directory's name.
  await expect(person).toHaveURL(`${origin}/profile`);
  await expect(person.getByRole('textbox', { name: 'Name' })).toHaveValue('Nurul Directory');
  await expect(person.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
  await person.close();

  // The directory goes down: the person is told so, not that the password is wrong.
  await openDirectorySettings(page, client);
  await dialog(page, client).getByLabel('Directory URL').fill(await closedDirectoryUrl());
  await dialog(page, client).getByRole('button', { name: 'Save Settings' }).click();
  await expect(dialog(page, client)).toHaveCount(0);
  const again = await browser.newPage();
  await again.goto(`${origin}/login`);
  await again.getByLabel('Email').fill(email);
  await again.getByLabel('Password').fill('directory-pass-9');
  await again.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(again.getByText(LDAP_DIRECTORY_DOWN)).toBeVisible();
  await again.close();

  // Removed: the stored settings are gone.
  await openDirectorySettings(page, client);
  await dialog(page, client).getByRole('button', { name: 'Remove Directory' }).click();
  await expect(toast(page, LDAP_SETTINGS_DELETED).first()).toBeVisible();
  await openDirectorySettings(page, client);
  await expect(dialog(page, client).getByLabel('Directory URL')).toHaveValue('');
});

test('the directory settings dialog is accessible in light and dark, and fits a phone', async ({ page, request }) => {
  // Three axe passes: longer than one page's test on 2 busy cores.
  test.slow();
  const client = unique('Directory Look');
  await registerDirectoryClient(request, 'https://look.directory.example.com', client);
  await signInByApi(page, accounts.superuser);
  await openDirectorySettings(page, client);
  await dialog(page, client).getByLabel('Find people by').click();
  await page.getByRole('option', { name: 'Directory search' }).click();
  await expect(dialog(page, client).getByLabel('Search Filter')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
});
