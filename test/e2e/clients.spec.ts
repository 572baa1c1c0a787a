import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  CLIENT_REGISTERED,
  CLIENT_STATUS_UPDATE_FAILED,
  CLIENT_STATUS_UPDATED,
  CLIENT_UPDATED,
  NO_CLIENTS_FOUND,
} from '../../contract/clients-constants';
import { FAIR_USE_EXCEEDED } from '../../contract/chat-constants';
import { SUBSCRIPTION_CREATED } from '../../contract/subscriptions-constants';
import { createDb } from '../../server/db/create-db';
import { insertUsageLog } from '../../server/db/repositories/usage-logs';
import { findUserByEmail } from '../../server/db/repositories/users';
import { accounts, isLocalServer, localDataDir, signIn, signInByApi } from './helpers/accounts';
import { activationPath } from './helpers/activation';
import { expectNoAxeViolations } from './helpers/axe';
import { createDialog, detailsDialog, toast } from './helpers/clients-area';
import { expectNoHorizontalOverflow, PHONE } from './helpers/phone-layout';
import { whileLocked } from './helpers/seed';
import { errorEnvelope, unique } from './paths/paths-support';

const searchBox = (page: Page) => page.getByPlaceholder('Search clients by name or email...');
const rowOf = (page: Page, name: string) => page.getByRole('table', { name: 'Clients' }).getByRole('row').filter({ hasText: name });
const formDialog = (page: Page, title: 'Register New Client' | 'Edit Client') => page.getByRole('dialog', { name: title });

async function expectAccessibleInBothSchemes(page: Page) {
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
}

async function findClient(page: Page, name: string) {
  await searchBox(page).fill(name);
  await expect(page.getByRole('table', { name: 'Clients' }).getByRole('rowheader')).toHaveCount(1);
  return rowOf(page, name);
}

/** The month's fair use of `email`'s organisation spent at once (a usage row of 10 billion tokens): local server only. */
async function spendFairUse(email: string) {
  const db = createDb({ databaseUrl: undefined, sqlitePath: path.join(localDataDir, 'tanya.db') });
  try {
    const user = (await findUserByEmail(db, email))!;
    await whileLocked(() =>
      insertUsageLog(db, {
        user_id: user.id,
        client_id: user.client_id,
        department_id: null,
        unit_id: null,
        conversation_id: null,
        message_id: null,
        purpose: 'reply',
        provider: 'e2e',
        model: 'e2e',
        prompt_tokens: 10_000_000_000,
        completion_tokens: 0,
        cost_usd: 0,
        duration_ms: 0,
      }),
    );
  } finally {
    await db.destroy();
  }
}

test.describe('clients (superuser)', () => {
  test('registers a client, finds, edits and switches it, adds a subscription and sign-in settings, reads its usage; its admin signs in through the mail and meets the fair use', async ({
    page,
  }) => {
    test.slow();
    const name = unique('Journey Client');
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    await signInByApi(page, accounts.superuser);
    await page.goto('/home');
    await expect(page.getByRole('heading', { name: 'Client Management', level: 1 })).toBeVisible();

    // Register New Client: the package decides the auth types; a standard package resets ldap to email.
    await page.getByRole('button', { name: 'Register New Client' }).click();
    const register = formDialog(page, 'Register New Client');
    await expect(register.getByRole('heading', { name: 'Subscription Information' })).toBeVisible();
    await expect(register.getByLabel('Maximum Users')).toHaveValue('1');
    await expect(register.getByLabel('Fair Use')).toHaveValue('1');
    await register.getByRole('button', { name: 'Register Client' }).click();
    for (const text of ['Package selection is required', 'Client name is required', 'Email is required', 'Origin URL is required']) {
      await expect(register.getByText(text)).toBeVisible();
    }
    await register.getByRole('button', { name: /Package/ }).click();
    await page.getByRole('option', { name: 'Premium' }).click();
    await register.getByRole('button', { name: /Auth Type/ }).click();
    await page.getByRole('option', { name: 'LDAP' }).click();
    await register.getByRole('button', { name: /Package/ }).click();
    await page.getByRole('option', { name: 'Standard' }).click();
    await expect(register.getByRole('button', { name: /Auth Type/ })).toContainText('Email');
    await register.getByLabel('Maximum Users').fill('3');
    await register.getByLabel('Client Name').fill(name);
    await register.getByRole('textbox', { name: 'Email' }).fill(`${slug}@client.test`);
    await register.getByLabel('Origin URL').fill(`https://${slug}.client.test`);
    await expectAccessibleInBothSchemes(page);
    await register.getByRole('button', { name: 'Register Client' }).click();
    await expect(toast(page, CLIENT_REGISTERED).first()).toBeVisible();
    await expect(register).toHaveCount(0);

    // Found by its name; edited (the row shows the server's copy); switched off and on again.
    const row = await findClient(page, name);
    await expect(row).toContainText(`https://${slug}.client.test`);
    await expect(row).toContainText('No phone');
    await row.getByRole('button', { name: /Edit Client/ }).click();
    const edit = formDialog(page, 'Edit Client');
    await edit.getByLabel('Phone').fill('+60 3-1234 5678');
    await edit.getByRole('button', { name: 'Update' }).click();
    await expect(toast(page, CLIENT_UPDATED).first()).toBeVisible();
    await expect(row).toContainText('+60 3-1234 5678');
    const status = row.getByRole('switch', { name: `Status of ${name}` });
    await status.focus();
    await page.keyboard.press('Space');
    await expect(toast(page, CLIENT_STATUS_UPDATED).first()).toBeVisible();
    await expect(status).not.toBeChecked();
    // The focus stayed on the switch while the change ran.
    await expect(status).toBeFocused();
    await page.keyboard.press('Space');
    await expect(status).toBeChecked();

    // A following subscription from the details.
    await row.getByRole('button', { name: /View Details/ }).click();
    const details = detailsDialog(page, name);
    await details.getByRole('tab', { name: 'Subscriptions' }).click();
    await details.getByRole('button', { name: 'Create New Subscription' }).click();
    const create = createDialog(page);
    await create.getByRole('button', { name: /Package/ }).click();
    await page.getByRole('option', { name: 'Premium' }).click();
    await create.getByRole('button', { name: 'Create Subscription' }).click();
    await expect(toast(page, SUBSCRIPTION_CREATED).first()).toBeVisible();
    await expect(details.getByRole('table', { name: 'Subscription History' }).getByRole('rowheader')).toHaveText(['Active', 'Upcoming']);
    // The focus came back to the button that opened it, in the details, so Escape closes them.
    await expect(details.getByRole('button', { name: 'Create New Subscription' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(details).toHaveCount(0);

    // Sign-in settings: a Microsoft configuration, its secret shown masked only.
    await row.getByRole('button', { name: /OAuth Config/ }).click();
    const oauth = page.getByRole('dialog', { name: `OAuth Configurations - ${name}` });
    await oauth.getByRole('button', { name: 'Add Configuration' }).click();
    await oauth.getByRole('button', { name: /Provider$/ }).click();
    await page.getByRole('option', { name: 'Microsoft' }).click();
    await oauth.getByLabel('Client ID').fill('journey-app');
    await oauth.getByLabel('Client Secret').fill('journey-secret-wxyz');
    await oauth.getByRole('button', { name: 'Create Configuration' }).click();
    await expect(oauth.getByRole('table', { name: 'OAuth configurations' })).toContainText('••••••••wxyz');
    await expect(oauth).not.toContainText('journey-secret-wxyz');
    await oauth.getByRole('button', { name: 'Close' }).first().click();
    await expect(oauth).toHaveCount(0);

    // Last month's usage: none yet, said as zeros.
    await row.getByRole('button', { name: /View Usage/ }).click();
    const usage = page.getByRole('dialog', { name: /^Client Usage Analytics/ });
    await expect(usage).toContainText('$0.00');
    await usage.getByRole('button', { name: 'Close' }).first().click();
    await expect(usage).toHaveCount(0);

    // Its first admin, registered from its Users page, activates through the mail and signs in.
    await row.getByRole('button', { name: /View Users/ }).click();
    await expect(page.getByRole('heading', { name: 'Client Users Management' })).toBeVisible();
    await page.getByRole('link', { name: 'Register Admin User' }).click();
    const adminEmail = `admin.${slug}@client.test`;
    await page.getByRole('textbox', { name: 'Full Name' }).fill('Journey Admin');
    await page.getByRole('textbox', { name: 'Email address' }).fill(adminEmail);
    await page.getByRole('button', { name: 'Create User' }).click();
    await expect(page.getByText('User registered successfully')).toBeVisible();
    await page.goto('/logout');
    await expect(page).toHaveURL(/\/login$/);
    // Against staging the mail is not ours to read: the journey ends at the registration there.
    if (!isLocalServer) return;
    await page.goto(await activationPath(adminEmail));
    await page.getByLabel('New password').fill('journey-admin-pass');
    await page.getByLabel('Confirm password').fill('journey-admin-pass');
    await page.getByRole('button', { name: 'Activate Account' }).click();
    await expect(page.getByRole('heading', { name: 'Account activated!' })).toBeVisible();
    await signIn(page, adminEmail, 'journey-admin-pass');
    await expect(page.getByRole('heading', { name: 'Usage Dashboard', level: 1 })).toBeVisible();

    // The month's allowance spent: the dashboard says so, and the chat refuses a question with the reason.
    await spendFairUse(adminEmail);
    await page.reload();
    await expect(page.getByText(/^10,000,000,000 of 3,000,000 tokens \(\d+(\.\d)?%\)$/)).toBeVisible();
    await page.goto('/chat');
    await page.getByRole('textbox', { name: 'Message' }).fill('Anything left this month?');
    await page.keyboard.press('Enter');
    await expect(page.getByText("This month's allowance is used up")).toBeVisible();
    await expect(page.getByText(FAIR_USE_EXCEEDED)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Refresh message' })).toHaveCount(0);
  });

  test('filters and finds nothing with the spec sentence; a refused switch leaves the row as it was (axe light and dark, 390 px)', async ({ page }) => {
    await signInByApi(page, accounts.superuser);
    await page.goto('/clients');
    const demo = await findClient(page, 'Demo Organisation');
    await page.getByRole('radio', { name: 'Inactive', exact: true }).click();
    await expect(page.getByText(NO_CLIENTS_FOUND)).toBeVisible();
    await page.getByRole('radio', { name: 'Active', exact: true }).click();
    await expect(demo).toBeVisible();
    // One page only: no page buttons.
    await expect(page.getByRole('navigation', { name: /pagination/i })).toHaveCount(0);

    await page.route(
      (url) => /\/api\/v1\/clients\/[^/]+\/status$/.test(url.pathname),
      (route) => route.fulfill(errorEnvelope(500, 'Internal Server Error')),
    );
    const status = demo.getByRole('switch', { name: 'Status of Demo Organisation' });
    await status.focus();
    await page.keyboard.press('Space');
    await expect(toast(page, CLIENT_STATUS_UPDATE_FAILED).first()).toBeVisible();
    await expect(status).toBeChecked();
    await expectAccessibleInBothSchemes(page);

    await page.setViewportSize(PHONE);
    await expect(demo).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await page.getByRole('button', { name: 'Register New Client' }).click();
    await expect(formDialog(page, 'Register New Client')).toBeVisible();
    await expectNoHorizontalOverflow(page);
  });
});
