import { expect, test, type Locator, type Page } from '@playwright/test';
import { accounts, signInAndLand, signInByApi } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';

const tipsDialog = (page: Page) => page.getByRole('dialog', { name: 'Tips' });
// The tips themselves, not the list items of an opened tip's markdown.
const tipList = (dialog: Locator) => dialog.getByRole('list', { name: 'Tips' }).locator('> li');

test.describe('tips', () => {
  test('browse, View More, search, filter by level and by tag, and read one', async ({ page }) => {
    await signInAndLand(page, accounts.user, /\/chat$/);
    await page.getByRole('button', { name: 'Tips', exact: true }).click();
    const dialog = tipsDialog(page);
    // A page of 10 (spec), then View More appends the next page.
    await expect(tipList(dialog)).toHaveCount(10);
    await dialog.getByRole('button', { name: 'View More' }).click();
    await expect(tipList(dialog)).toHaveCount(20);
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'light' });

    // Search (after a 500 ms pause in typing) finds the sharing tip.
    await dialog.getByRole('searchbox', { name: 'Search tips' }).fill('share a conversation');
    await expect(tipList(dialog)).toHaveCount(1);
    const sharing = tipList(dialog).first();
    await expect(sharing).toContainText('Share a conversation with colleagues');
    await expect(sharing).toContainText('Beginner');
    await expect(sharing).toContainText('min');
    // Reading it: its markdown opens under the title.
    await sharing.getByRole('button', { name: /Share a conversation with colleagues/ }).click();
    await expect(sharing.getByRole('button', { name: /Share a conversation with colleagues/ })).toHaveAttribute('aria-expanded', 'true');
    await expect(sharing.locator('p').first()).toBeVisible();
    await expectNoAxeViolations(page);

    // A tag shows every tip that has it; the level filter narrows the list.
    await dialog.getByRole('button', { name: 'Clear search' }).click();
    await expect(tipList(dialog)).toHaveCount(10);
    await tipList(dialog).first().getByRole('button', { name: 'Tips tagged basics' }).click();
    await expect(dialog.getByText('Tag:')).toBeVisible();
    const tagged = tipList(dialog);
    await expect(tagged.first()).toBeVisible();
    for (const item of await tagged.all()) await expect(item.getByRole('button', { name: 'Tips tagged basics' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Clear tag' }).click();
    await dialog.getByRole('button', { name: /Level/ }).click();
    await page.getByRole('option', { name: 'Advanced', exact: true }).click();
    await expect(tipList(dialog).first()).toBeVisible();
    await expect(tipList(dialog).filter({ hasNotText: 'Advanced' })).toHaveCount(0);
    // Closed with its Close button: an Escape pressed on the Level select right after choosing is, about one time in
    // four, taken by the select instead of the modal (see the closing note); Escape itself is tested in the playground.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
  });

  test('/tips-example shows the tips modal', async ({ page }) => {
    await signInByApi(page, accounts.user);
    await page.goto('/tips-example');
    await expect(tipList(tipsDialog(page))).toHaveCount(10);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Open tips' })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
