import { expect, test, type Page } from '@playwright/test';
import { registerClient } from './helpers/clients-area';
import {
  OAUTH_CLIENT_ID_REQUIRED,
  OAUTH_CLIENT_SECRET_REQUIRED,
  OAUTH_CREATED,
  OAUTH_DELETED,
  OAUTH_KEY_MISSING,
  OAUTH_LIST_UNAVAILABLE,
  OAUTH_PROVIDER_REQUIRED,
  OAUTH_UPDATED,
  oauthDeleteConfirm,
} from '../../contract/oauth-configs-constants';
import { accounts, signInByApi } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import { expectNoHorizontalOverflow, PHONE } from './helpers/phone-layout';
import { errorEnvelope, unique } from './paths/paths-support';

// Each test's configurations belong to a client of its own (registered through the API), reached through the Clients page.

const CONFIGS = (url: URL) => /\/api\/v1\/clients\/[^/]+\/oauth-configs(\/[^/]+)?$/.test(url.pathname);

const modal = (page: Page, client: string) => page.getByRole('dialog', { name: `OAuth Configurations - ${client}` });
const table = (page: Page) => page.getByRole('table', { name: 'OAuth configurations' });
const row = (page: Page, provider: string) => table(page).getByRole('row').filter({ has: page.getByRole('rowheader', { name: provider }) });
const toast = (page: Page, text: string) => page.getByRole('alertdialog', { name: text });

async function expectNoAxeViolationsLightAndDark(page: Page) {
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
}

async function closeToast(page: Page, text: string) {
  await expect(toast(page, text).first()).toBeVisible();
  await toast(page, text).first().getByRole('button', { name: 'Close' }).click();
  await expect(toast(page, text)).toHaveCount(0);
}


/** The Clients page: the client found by name, and its 'OAuth Config' row action. */
async function openOAuthModal(page: Page, client: string) {
  await page.goto('/clients');
  await expect(page.getByRole('heading', { name: 'Client Management', level: 1 })).toBeVisible();
  const search = page.getByPlaceholder('Search clients by name or email...');
  await search.fill(client);
  const clientRow = page.getByRole('row').filter({ hasText: client });
  await expect(clientRow).toHaveCount(1);
  await clientRow.getByRole('button', { name: /OAuth Config/ }).click();
  await expect(modal(page, client)).toBeVisible();
}

test.describe('OAuth configurations', () => {
  test('the superuser adds one (secret masked), edits it without and with a new secret, and deletes it after the question', async ({ page }) => {
    test.slow();
    const client = unique('OAuth Client');
    await registerClient(page.request, client);
    await signInByApi(page, accounts.superuser);
    await openOAuthModal(page, client);
    const dialog = modal(page, client);
    await expect(dialog.getByText('No OAuth configurations yet')).toBeVisible();

    // Add: the rules first, then a Microsoft one without a tenant (sent as null).
    await dialog.getByRole('button', { name: 'Add Configuration' }).click();
    await expect(dialog.getByRole('heading', { name: 'Add OAuth Configuration' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Create Configuration' }).click();
    for (const text of [OAUTH_PROVIDER_REQUIRED, OAUTH_CLIENT_ID_REQUIRED, OAUTH_CLIENT_SECRET_REQUIRED]) await expect(dialog.getByText(text)).toBeVisible();
    await expectNoAxeViolationsLightAndDark(page);
    await dialog.getByRole('button', { name: /Provider$/ }).click();
    await page.getByRole('option', { name: 'Microsoft' }).click();
    await dialog.getByLabel('Client ID').fill('app-one');
    await dialog.getByLabel('Client Secret').fill('first-secret-abcd');
    const created = page.waitForRequest((r) => r.method() === 'POST' && CONFIGS(new URL(r.url())));
    await dialog.getByRole('button', { name: 'Create Configuration' }).click();
    expect((await created).postDataJSON()).toEqual({
      provider: 'microsoft',
      tenant_id: null,
      provider_client_id: 'app-one',
      provider_client_secret: 'first-secret-abcd',
    });
    await closeToast(page, OAUTH_CREATED);
    // Back on the list: the secret only masked.
    await expect(row(page, 'Microsoft')).toContainText('app-one');
    await expect(row(page, 'Microsoft')).toContainText('••••••••abcd');
    await expect(dialog).not.toContainText('first-secret-abcd');
    await expectNoAxeViolationsLightAndDark(page);

    // Edit without the secret: only the non-empty fields go, no secret.
    await row(page, 'Microsoft').getByRole('button', { name: 'Edit Microsoft configuration' }).click();
    await expect(dialog.getByLabel('Stored client secret (masked)')).toHaveText('••••••••abcd');
    await dialog.getByLabel('Client ID').fill('app-two');
    await dialog.getByLabel('Tenant ID').fill('contoso.onmicrosoft.com');
    const edited = page.waitForRequest((r) => r.method() === 'PUT' && CONFIGS(new URL(r.url())));
    await dialog.getByRole('button', { name: 'Update Configuration' }).click();
    expect((await edited).postDataJSON()).toEqual({ provider: 'microsoft', tenant_id: 'contoso.onmicrosoft.com', provider_client_id: 'app-two' });
    await closeToast(page, OAUTH_UPDATED);
    await expect(row(page, 'Microsoft')).toContainText('app-two');
    await expect(row(page, 'Microsoft')).toContainText('••••••••abcd');

    // Edit with a new secret: the other fields are locked meanwhile; the secret edit can be cancelled.
    await row(page, 'Microsoft').getByRole('button', { name: 'Edit Microsoft configuration' }).click();
    await dialog.getByRole('button', { name: 'Change Secret' }).click();
    await expect(dialog.getByLabel('Client ID')).toBeDisabled();
    await expect(dialog.getByLabel('Tenant ID')).toBeDisabled();
    await expect(dialog.getByRole('button', { name: /Provider$/ })).toBeDisabled();
    await dialog.getByRole('button', { name: 'Update Configuration' }).click();
    await expect(dialog.getByText(OAUTH_CLIENT_SECRET_REQUIRED)).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel Secret Change' }).click();
    await expect(dialog.getByLabel('Client ID')).toBeEnabled();
    await expect(dialog.getByLabel('Stored client secret (masked)')).toBeVisible();
    await dialog.getByRole('button', { name: 'Change Secret' }).click();
    await dialog.getByLabel('New Client Secret').fill('second-secret-wxyz');
    const rekeyed = page.waitForRequest((r) => r.method() === 'PUT' && CONFIGS(new URL(r.url())));
    await dialog.getByRole('button', { name: 'Update Configuration' }).click();
    expect((await rekeyed).postDataJSON()).toMatchObject({ provider_client_secret: 'second-secret-wxyz' });
    await closeToast(page, OAUTH_UPDATED);
    await expect(row(page, 'Microsoft')).toContainText('••••••••wxyz');

    // Back to List leaves a form without saving.
    await dialog.getByRole('button', { name: 'Add Configuration' }).click();
    await dialog.getByRole('button', { name: 'Back to List' }).click();
    await expect(table(page)).toBeVisible();

    // Delete: asked first; Cancel keeps it.
    await row(page, 'Microsoft').getByRole('button', { name: 'Delete Microsoft configuration' }).click();
    const question = page.getByRole('alertdialog', { name: 'Delete OAuth Configuration' });
    await expect(question).toContainText(oauthDeleteConfirm('Microsoft'));
    await question.getByRole('button', { name: 'Cancel' }).click();
    await expect(row(page, 'Microsoft')).toBeVisible();
    await row(page, 'Microsoft').getByRole('button', { name: 'Delete Microsoft configuration' }).click();
    await question.getByRole('button', { name: 'Delete' }).click();
    await closeToast(page, OAUTH_DELETED);
    await expect(dialog.getByText('No OAuth configurations yet')).toBeVisible();
  });

  test('a server without OAUTH_SECRET_KEY: the list and a save say so; the modal fits a 390 px phone', async ({ page }) => {
    const client = unique('OAuth Keyless');
    await registerClient(page.request, client);
    await page.setViewportSize(PHONE);
    await signInByApi(page, accounts.superuser);
    // The server refuses as it does without the key: the list (when there are configurations to open) and any save.
    let listRefused = true;
    await page.route(
      (url) => CONFIGS(url),
      (route) =>
        route.request().method() === 'POST' || listRefused ? route.fulfill(errorEnvelope(503, OAUTH_KEY_MISSING)) : route.fallback(),
    );
    await openOAuthModal(page, client);
    const dialog = modal(page, client);
    await expect(dialog.getByText(OAUTH_LIST_UNAVAILABLE)).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Add Configuration' })).toBeDisabled();
    await expectNoHorizontalOverflow(page);
    // A save refused with 503 says the server's sentence, and keeps what was typed.
    listRefused = false;
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await openOAuthModal(page, client);
    await dialog.getByRole('button', { name: 'Add Configuration' }).click();
    await dialog.getByRole('button', { name: /Provider$/ }).click();
    await page.getByRole('option', { name: 'Google' }).click();
    await dialog.getByLabel('Client ID').fill('g-app');
    await dialog.getByLabel('Client Secret').fill('g-secret');
    await dialog.getByRole('button', { name: 'Create Configuration' }).click();
    await closeToast(page, OAUTH_KEY_MISSING);
    await expect(dialog.getByLabel('Client ID')).toHaveValue('g-app');
    await expectNoHorizontalOverflow(page);
  });
});
