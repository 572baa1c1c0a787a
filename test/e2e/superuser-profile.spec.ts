import { expect, test } from '@playwright/test';
import { accounts, signInAndLand } from './helpers/accounts';

/** A superuser belongs to no organisation: nothing asks them to set a department. */
test('the superuser never sees the department notice, on home or on their profile', async ({ page }) => {
  await signInAndLand(page, accounts.superuser, /\/home$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('You need to set your Department')).toHaveCount(0);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
  await expect(page.getByText('As a superuser you belong to no organisation')).toBeVisible();
  await expect(page.getByText('You need to set your Department')).toHaveCount(0);
  await expect(page.getByText('Please complete your profile')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Department' })).toHaveCount(0);
});
