import { expect, test, type Page } from '@playwright/test';
import { registerClient } from './helpers/clients-area';
import {
  SYSTEM_PROMPT_ACTIVATED,
  SYSTEM_PROMPT_CONTENT_REQUIRED,
  SYSTEM_PROMPT_CREATED,
  SYSTEM_PROMPT_DEACTIVATED,
  SYSTEM_PROMPT_DELETED,
  SYSTEM_PROMPT_NAME_REQUIRED,
  SYSTEM_PROMPT_UPDATED,
} from '../../contract/system-prompts-constants';
import { accounts, signInByApi } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import { expectNoHorizontalOverflow, PHONE } from './helpers/phone-layout';
import { unique } from './paths/paths-support';

// The tests scope their prompts to a client of their own: a prompt for everyone would change every other test's replies.

const heading = (page: Page) => page.getByRole('heading', { name: 'System Prompts', level: 1 });
const prompts = (page: Page) => page.getByRole('list', { name: 'System prompts' });
const item = (page: Page, name: string) => prompts(page).getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });
const dialog = (page: Page) => page.getByRole('dialog');
const preview = (page: Page) => page.getByLabel('Composed system prompt');
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

async function pick(page: Page, label: string, option: string) {
  await page.getByRole('button', { name: new RegExp(`${label}$`) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}


test.describe('system prompts', () => {
  test('the superuser creates a prompt for a client, edits it, activates it, sees it in the preview and deletes it', async ({ page }) => {
    test.slow();
    const clientName = unique('SP Client');
    await registerClient(page.request, clientName);
    await signInByApi(page, accounts.superuser);
    await page.goto('/system-prompts');
    await expect(heading(page)).toBeVisible();
    await expect(preview(page)).toBeVisible();

    // The preview for the new client: no prompt of the superuser's yet.
    await pick(page, 'Preview for', clientName);
    await expect(page.getByText('No system prompt of yours is active for these people.')).toBeVisible();

    // Create: the rules first, then the prompt (for the client chosen in the preview).
    const name = unique('Tone');
    await page.getByRole('button', { name: 'New Prompt' }).click();
    await expect(dialog(page).getByRole('heading', { name: 'New System Prompt' })).toBeVisible();
    await dialog(page).getByRole('button', { name: 'Create Prompt' }).click();
    await expect(dialog(page).getByText(SYSTEM_PROMPT_NAME_REQUIRED)).toBeVisible();
    await expect(dialog(page).getByText(SYSTEM_PROMPT_CONTENT_REQUIRED)).toBeVisible();
    await expectNoAxeViolationsLightAndDark(page);
    await dialog(page).getByLabel('Name').fill(`  ${name}  `);
    await dialog(page).getByLabel('Prompt text').fill('Greet the reader warmly.');
    await expect(dialog(page).getByRole('button', { name: /Applies to$/ })).toContainText(clientName);
    await dialog(page).getByRole('button', { name: 'Create Prompt' }).click();
    await closeToast(page, SYSTEM_PROMPT_CREATED);
    await expect(dialog(page)).toBeHidden();
    await expect(item(page, name)).toContainText(clientName);
    await expect(item(page, name)).toContainText('Inactive');

    // Edit the text.
    const text = `Answer like a ship's captain ${Date.now()}.`;
    await item(page, name).getByRole('button', { name: `Edit ${name}` }).click();
    await expect(dialog(page).getByLabel('Name')).toHaveValue(name);
    await dialog(page).getByLabel('Prompt text').fill(text);
    await dialog(page).getByRole('button', { name: 'Save Changes' }).click();
    await closeToast(page, SYSTEM_PROMPT_UPDATED);
    await expect(item(page, name)).toContainText(text);

    // Activate: the preview for that client now holds it.
    await item(page, name).getByRole('button', { name: `Activate ${name}` }).click();
    await closeToast(page, SYSTEM_PROMPT_ACTIVATED);
    await expect(item(page, name)).toContainText('Active');
    await expect(preview(page)).toContainText(text);
    await expect(page.getByText(`Active system prompt in it: ${name}`)).toBeVisible();
    await expectNoAxeViolationsLightAndDark(page);

    // Everyone's preview does not hold a client's prompt.
    await pick(page, 'Preview for', 'Everyone (no client)');
    await expect(preview(page)).not.toContainText(text);

    // Deactivate, then delete through the question.
    await item(page, name).getByRole('button', { name: `Deactivate ${name}` }).click();
    await closeToast(page, SYSTEM_PROMPT_DEACTIVATED);
    await item(page, name).getByRole('button', { name: `Delete ${name}` }).click();
    const question = page.getByRole('alertdialog', { name: 'Delete System Prompt' });
    await expect(question).toContainText(name);
    await question.getByRole('button', { name: 'Cancel' }).click();
    await expect(item(page, name)).toBeVisible();
    await item(page, name).getByRole('button', { name: `Delete ${name}` }).click();
    await question.getByRole('button', { name: 'Delete' }).click();
    await closeToast(page, SYSTEM_PROMPT_DELETED);
    await expect(item(page, name)).toHaveCount(0);
  });

  test('fits a 390 px phone, the list, the preview and the editor', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signInByApi(page, accounts.superuser);
    await page.goto('/system-prompts');
    await expect(heading(page)).toBeVisible();
    await expect(preview(page)).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await page.getByRole('button', { name: 'New Prompt' }).click();
    await expect(dialog(page).getByLabel('Prompt text')).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog(page)).toBeHidden();
  });
});
