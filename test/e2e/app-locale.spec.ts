import { expect, test } from '@playwright/test';
import { accounts, signInAndLand } from './helpers/accounts';

// The interface is English only (index.html lang="en"): react-aria's own words follow it, not the browser's
// language (src/lib/app-locale.ts), so a screen reader does not read French words on an English page.

test.describe('interface language', () => {
  test.use({ locale: 'fr-FR' });

  test("in a French browser the popover's hidden close buttons are still called Dismiss", async ({ page }) => {
    expect(await page.evaluate(() => navigator.language)).toBe('fr-FR');
    await signInAndLand(page, accounts.admin, /\/home$/);
    await page.getByRole('button', { name: 'Account details' }).click();
    await expect(page.getByRole('dialog', { name: 'Profile' })).toBeVisible();
    // react-aria puts one before and one after the popover's content, for screen reader users to close it.
    await expect(page.getByRole('button', { name: 'Dismiss', exact: true })).not.toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Rejeter' })).toHaveCount(0);
    // Visually hidden (1 px): reached and pressed from the keyboard, as a screen reader user would.
    await page.getByRole('button', { name: 'Dismiss', exact: true }).first().press('Enter');
    await expect(page.getByRole('dialog', { name: 'Profile' })).toBeHidden();
  });
});
