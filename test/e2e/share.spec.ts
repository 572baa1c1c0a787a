import { expect, test, type Browser, type Page } from '@playwright/test';
import { accounts, isLocalServer, signInAndLand, signInByApi } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import { assistantMessages, unique } from './paths/paths-support';
import { openSeededConversation } from './helpers/seed';

/** A second person in their own browser context (own storage: their own session). */
async function asPerson(browser: Browser, email: string, landing: RegExp) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAndLand(page, email, landing);
  return { page, close: () => context.close() };
}

const shareDialog = (page: Page) => page.getByRole('dialog', { name: 'Share Conversation' });

test.describe('sharing a conversation', () => {
  test('the link opens read-only for a colleague and is refused to someone outside the organisation', async ({ page, browser, context }) => {
    test.slow();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInByApi(page, accounts.user);
    const question = unique('Summarise the onboarding checklist');
    await openSeededConversation(page, question);
    const reply = (await assistantMessages(page).last().innerText()).trim();

    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = shareDialog(page);
    await expect(dialog.getByText('Anyone with this link can view this conversation:')).toBeVisible();
    const link = dialog.getByRole('textbox', { name: 'Share link' });
    await expect(link).toHaveValue(/\/share\/[A-Za-z0-9_-]{22,}$/);
    await expect(link).toHaveAttribute('readonly', '');
    const url = await link.inputValue();
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'light' });

    // Copy: the link is in the clipboard, the button says so for two seconds.
    await dialog.getByRole('button', { name: 'Copy link' }).click();
    await expect(page.getByText('Link copied to clipboard')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Link copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await expect(dialog.getByRole('button', { name: 'Copy link' })).toBeVisible({ timeout: 5_000 });
    // Asking again (a new opening) gives the same link.
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await expect(shareDialog(page).getByRole('textbox', { name: 'Share link' })).toHaveValue(url);
    await page.keyboard.press('Escape');

    // A colleague of the same organisation reads it, and can do nothing else with it.
    const colleague = await asPerson(browser, accounts.admin, /\/home$/);
    await colleague.page.goto(new URL(url).pathname);
    const shared = colleague.page;
    await expect(shared.getByText('This is a shared conversation. You are viewing it in read-only mode.')).toBeVisible();
    await expect(shared.getByRole('article', { name: 'Shared question' })).toHaveText(question);
    await expect(shared.getByRole('article', { name: 'Shared reply' })).toContainText(reply.slice(0, 40));
    if (isLocalServer) await expect(shared.getByRole('heading', { level: 1 })).toHaveText(/^(New Conversation|Summarise the onboarding)/);
    await expect(shared.getByRole('textbox')).toHaveCount(0);
    // Code blocks keep their own Copy code button; none of the chat's actions is offered.
    await expect(shared.getByRole('button', { name: /^(Edit message|Share|Save to prompt library|Copy message|Regenerate reply|Send message)$/ })).toHaveCount(0);
    await expectNoAxeViolations(shared);
    await shared.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(shared);
    await colleague.close();

    // The superuser belongs to no client organisation: the link is not found for them.
    const outsider = await asPerson(browser, accounts.superuser, /\/home$/);
    await outsider.page.goto(new URL(url).pathname);
    // Told like a link that was never there (no 'Try again': the same link gets the same answer).
    await expect(outsider.page.getByText('This shared link is no longer available')).toBeVisible();
    await expect(outsider.page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    await expect(outsider.page.getByRole('article')).toHaveCount(0);
    await outsider.close();
  });

  test('Share on the new-chat screen says no conversation is selected', async ({ page }) => {
    await signInAndLand(page, accounts.user, /\/chat$/);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await expect(page.getByText('No conversation selected')).toBeVisible();
    await expect(shareDialog(page)).toHaveCount(0);
  });
});
