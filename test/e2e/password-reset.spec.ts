import { expect, test } from '@playwright/test';
import { accounts, isLocalServer, password, signInAndLand } from './helpers/accounts';
import { outboxMails } from './helpers/outbox';

/** The newest mail to `to` in the local server's outbox. */
async function resetLinkFor(to: string): Promise<string> {
  for (const eml of (await outboxMails()).reverse()) {
    if (eml.includes(to)) {
      const m = eml.match(/https?:\/\/[^\s"<>]+\/reset-password\/[A-Za-z0-9_-]+/);
      if (m) return m[0];
    }
  }
  throw new Error(`no reset mail for ${to}`);
}

test.describe('password reset', () => {
  test('the request modal validates and confirms where instructions went', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(dialog.getByText('Email is required')).toBeVisible();
    await dialog.getByLabel('Email').fill('nobody@unknown.example');
    await dialog.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByText('Password reset instructions sent to nobody@unknown.example')).toBeVisible();
  });

  test('an unknown link says so at once, without a password form', async ({ page }) => {
    await page.goto('/reset-password/not-a-real-reset-token-0123456789');
    await expect(page.getByRole('heading', { name: 'Reset link not valid' })).toBeVisible();
    await expect(page.getByLabel('New password')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Return to Login' })).toBeVisible();
  });

  if (isLocalServer) {
    test('the mailed link sets a new password once (outbox)', async ({ page }) => {
      await page.goto('/login');
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.getByRole('dialog').getByLabel('Email').fill(accounts.superuser);
      await page.getByRole('dialog').getByRole('button', { name: 'Send Reset Link' }).click();
      await expect(page.getByText(`Password reset instructions sent to ${accounts.superuser}`)).toBeVisible();
      await expect.poll(() => resetLinkFor(accounts.superuser).then(() => true, () => false)).toBe(true);
      const link = new URL(await resetLinkFor(accounts.superuser));

      await page.goto(link.pathname);
      await page.getByLabel('New password').fill(password);
      await page.getByLabel('Confirm password').fill(password + 'x');
      await expect(page.getByText('Passwords do not match')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Update Password' })).toBeDisabled();
      // The same password as before, so the other tests' sign-ins keep working.
      await page.getByLabel('Confirm password').fill(password);
      await page.getByRole('button', { name: 'Update Password' }).click();
      await expect(page.getByRole('heading', { name: 'Password Updated!' })).toBeVisible();

      // A used link says so as the page opens, before any password is typed, and offers a new one.
      await page.goto(link.pathname);
      await expect(page.getByRole('heading', { name: 'Reset link not valid' })).toBeVisible();
      await expect(page.getByText('Invalid or expired reset token. Reset links work once')).toBeVisible();
      await expect(page.getByLabel('New password')).toHaveCount(0);
      await page.getByRole('button', { name: 'Request a new link' }).click();
      await expect(page.getByRole('dialog', { name: 'Forgot Password' })).toBeVisible();
      await page.keyboard.press('Escape');

      await signInAndLand(page, accounts.superuser, /\/home$/);
    });
  }
});
