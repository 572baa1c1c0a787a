import { expect, test, type Page } from '@playwright/test';
import { accounts, signInAndLand, signInByApi } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import { messageBox, unique, userMessages } from './paths/paths-support';
import { openSeededConversation } from './helpers/seed';

const libraryDialog = (page: Page) => page.getByRole('dialog', { name: 'Prompt Library' });
const savedPrompts = (page: Page) => libraryDialog(page).getByRole('list', { name: 'Saved prompts' }).getByRole('listitem');

async function expectNoAxeViolationsLightAndDark(page: Page) {
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Saves prompts through the API as the signed-in person (the list's paging needs more than one page of them). */
async function savePromptsByApi(page: Page, prompts: Array<{ prompt: string; tags: string[] }>) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  for (const body of prompts) {
    const res = await page.request.post('/api/v1/prompt-libraries/', { headers: { Authorization: `Bearer ${token}` }, data: body });
    expect(res.status()).toBe(200);
  }
}

test.describe('prompt library', () => {
  test('save a message, find it by search, edit it, paste it into the input, copy it and delete it', async ({ page, context }) => {
    test.slow();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInByApi(page, accounts.user);
    const question = unique('Draft a polite reminder about the quarterly report');
    const token = question.split(' ').at(-1)!;
    await openSeededConversation(page, question);

    // Save to Personal Prompt Library from the person's own message: the text is there, a tag is required.
    await userMessages(page).last().hover();
    await userMessages(page).last().getByRole('button', { name: 'Save to prompt library' }).click();
    const saveDialog = page.getByRole('dialog', { name: 'Save to Personal Prompt Library' });
    await expect(saveDialog.getByRole('textbox', { name: 'Prompt' })).toHaveValue(question);
    await saveDialog.getByRole('button', { name: 'Save' }).click();
    await expect(saveDialog.getByText('At least one tag is required')).toBeVisible();
    await expectNoAxeViolationsLightAndDark(page);
    await saveDialog.getByRole('textbox', { name: 'Tags' }).fill(' reminders, , Email ,reminders');
    await saveDialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Prompt saved to library successfully')).toBeVisible();
    await expect(saveDialog).toHaveCount(0);

    // The library lists it with its tags, trimmed and each once; search finds it after the debounce.
    await page.getByRole('button', { name: 'Prompt library', exact: true }).click();
    const dialog = libraryDialog(page);
    await expect(savedPrompts(page).first()).toBeVisible();
    await dialog.getByRole('searchbox', { name: 'Search prompts' }).fill(token);
    await expect(savedPrompts(page)).toHaveCount(1);
    const item = savedPrompts(page).first();
    await expect(item).toContainText(question);
    await expect(item.getByRole('button', { name: /^Prompts tagged / })).toHaveText(['reminders', 'Email']);
    await expectNoAxeViolationsLightAndDark(page);

    // Edit Prompt: loaded with its text and tags; the change shows in place.
    await item.getByRole('button', { name: 'Edit prompt' }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit Prompt' });
    await expect(editDialog.getByRole('textbox', { name: 'Tags' })).toHaveValue('reminders, Email');
    await expectNoAxeViolationsLightAndDark(page);
    const edited = `${question} in two sentences`;
    await editDialog.getByRole('textbox', { name: 'Prompt' }).fill(edited);
    await editDialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Prompt updated successfully')).toBeVisible();
    await expect(editDialog).toHaveCount(0);
    await expect(savedPrompts(page).first()).toContainText(edited);

    // Copy: the clipboard holds the prompt, the button says so for a moment.
    await savedPrompts(page).first().getByRole('button', { name: 'Copy prompt' }).click();
    await expect(savedPrompts(page).first().getByRole('button', { name: 'Prompt copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(edited);
    await expect(savedPrompts(page).first().getByRole('button', { name: 'Copy prompt' })).toBeVisible({ timeout: 5_000 });

    // Paste to chat: the text goes into the input box and the library closes.
    await savedPrompts(page).first().getByRole('button', { name: 'Paste to chat' }).click();
    await expect(page.getByText('Prompt pasted to chat')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(messageBox(page)).toHaveValue(edited);
    await expect(messageBox(page)).toBeFocused();

    // Delete Prompt, after confirming: it leaves the list.
    await page.getByRole('button', { name: 'Prompt library', exact: true }).click();
    await libraryDialog(page).getByRole('searchbox', { name: 'Search prompts' }).fill(token);
    await expect(savedPrompts(page)).toHaveCount(1);
    await savedPrompts(page).first().getByRole('button', { name: 'Delete prompt' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Prompt' });
    await expectNoAxeViolationsLightAndDark(page);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Prompt deleted successfully')).toBeVisible();
    await expect(confirm).toHaveCount(0);
    await expect(savedPrompts(page)).toHaveCount(0);
    await expect(libraryDialog(page).getByText('No prompts found')).toBeVisible();
  });

  test('a new prompt from the library; a tag shows only its prompts, ten at a time with View More', async ({ page }) => {
    await signInAndLand(page, accounts.user, /\/chat$/);
    const tag = unique('team').replace(' ', '-');
    await savePromptsByApi(
      page,
      Array.from({ length: 11 }, (_, i) => ({ prompt: `Standing prompt ${i + 1} for ${tag}`, tags: [tag, 'standing'] })),
    );

    await page.getByRole('button', { name: 'Prompt library', exact: true }).click();
    const dialog = libraryDialog(page);
    await dialog.getByRole('button', { name: 'New Prompt' }).click();
    const form = page.getByRole('dialog', { name: 'New Prompt' });
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Prompt is required')).toBeVisible();
    await expect(form.getByText('At least one tag is required')).toBeVisible();
    await form.getByRole('textbox', { name: 'Prompt' }).fill(`Newest prompt for ${tag}`);
    await form.getByRole('textbox', { name: 'Tags' }).fill(tag);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Prompt saved successfully')).toBeVisible();
    await expect(savedPrompts(page).first()).toContainText(`Newest prompt for ${tag}`);

    // Choosing a tag shows only its prompts: 12 of them, 10 on the first page, View More appends the rest.
    await savedPrompts(page).first().getByRole('button', { name: `Prompts tagged ${tag}` }).click();
    await expect(dialog.getByText(`Tag: ${tag}`)).toBeVisible();
    await expect(savedPrompts(page)).toHaveCount(10);
    await dialog.getByRole('button', { name: 'View More' }).click();
    await expect(savedPrompts(page)).toHaveCount(12);
    await expect(dialog.getByRole('button', { name: 'View More' })).toHaveCount(0);
    await expect(savedPrompts(page).last()).toContainText(`Standing prompt 1 for ${tag}`);
    await dialog.getByRole('button', { name: 'Clear tag' }).click();
    await expect(dialog.getByText(`Tag: ${tag}`)).toHaveCount(0);
  });
});
