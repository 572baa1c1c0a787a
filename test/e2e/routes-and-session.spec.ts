import { expect, test } from '@playwright/test';
import { accounts, signInAndLand } from './helpers/accounts';

test.describe('route guards', () => {
  test('an unauthenticated visitor on a protected route goes to Login', async ({ page }) => {
    for (const path of ['/home', '/chat', '/profile', '/users', '/clients', '/register']) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/login$/);
    }
  });

  test('role-restricted routes send other roles to Home', async ({ page }) => {
    await signInAndLand(page, accounts.admin, /\/home$/);
    for (const path of ['/clients', '/system-prompts', '/clients/abc/users']) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/home$/);
      // The superuser's pages say why (administration spec, Clients page).
      await expect(page.getByText('Access denied. Only superusers can access this page.'), path).toBeVisible();
    }
    for (const [path, title] of [
      ['/users', 'User Management'],
      ['/register', 'New User Information'],
      ['/departments', 'Department Management'],
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
    }
  });

  test('superuser is kept out of admin-only routes', async ({ page }) => {
    await signInAndLand(page, accounts.superuser, /\/home$/);
    for (const path of ['/users', '/departments', '/global-policy']) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/home$/);
    }
    await page.goto('/clients');
    await expect(page.getByRole('heading', { name: 'Client Management' })).toBeVisible();
  });

  test('a plain user is sent from Home and admin routes to Chat; /login when signed in goes to Chat', async ({ page }) => {
    await signInAndLand(page, accounts.user, /\/chat$/);
    for (const path of ['/home', '/users', '/login']) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/chat$/);
    }
    await page.goto('/');
    await expect(page).toHaveURL(/\/chat$/);
  });

  test('newhire is forced to Profile until a department and unit are saved', async ({ page }) => {
    await signInAndLand(page, accounts.newhire, /\/profile$/);
    await expect(page.getByText('You need to set your Department before you can access the system.')).toBeVisible();
    await page.goto('/chat');
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByLabel('Name')).toHaveValue('Nina Newhire');
    await expect(page.getByLabel('Email')).toHaveAttribute('readonly', '');
    const unit = page.getByRole('button', { name: /Unit/ });
    await expect(unit).toBeDisabled();
    await page.getByRole('button', { name: /Department/ }).click();
    await page.getByRole('option', { name: 'Finance' }).click();
    await expect(unit).toBeEnabled();
    await unit.click();
    await expect(page.getByRole('option')).toHaveText(['Accounts Payable', 'Payroll']);
    await page.getByRole('option', { name: 'Payroll' }).click();
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await expect(page.getByText('Profile updated successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/chat$/);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
    expect(stored.department_id).toBeTruthy();
    expect(stored.unit_id).toBeTruthy();
  });

  test('unknown paths show the 404 page with Go Back and Go Home', async ({ page }) => {
    await signInAndLand(page, accounts.admin, /\/home$/);
    await page.goto('/departments');
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(/\/departments$/);
    await page.goto('/another-missing-page');
    await page.getByRole('button', { name: 'Go Home' }).click();
    await expect(page).toHaveURL(/\/home$/);
  });
});

test.describe('session', () => {
  test('a stale access token is refreshed once and the call retried', async ({ page }) => {
    await signInAndLand(page, accounts.admin, /\/home$/);
    const before = await page.evaluate(() => localStorage.getItem('refreshToken'));
    let refreshes = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/auth/refresh')) refreshes++;
    });
    await page.evaluate(() => localStorage.setItem('token', 'not-a-valid-token'));
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Usage Dashboard' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('refreshToken'))).not.toBe(before);
    expect(await page.evaluate(() => localStorage.getItem('token'))).not.toBe('not-a-valid-token');
    expect(refreshes).toBe(1);
  });

  test('an expired session shows the toast and returns to /login', async ({ page }) => {
    await signInAndLand(page, accounts.admin, /\/home$/);
    await page.evaluate(() => {
      localStorage.setItem('token', 'expired-access');
      localStorage.setItem('refreshToken', 'revoked-refresh');
    });
    await page.reload();
    await expect(page.getByText('Your session has expired. Please login again.')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')])).toEqual([null, null]);
  });
});

test.describe('sidebar', () => {
  test('on mobile the sidebar is a drawer with a menu button and an overlay', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await signInAndLand(page, accounts.admin, /\/home$/);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav).toBeVisible();
    await page.getByTestId('drawer-overlay').click({ position: { x: 370, y: 400 } });
    await expect(nav).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await nav.getByRole('link', { name: 'Users' }).click();
    await expect(page).toHaveURL(/\/users$/);
    await expect(nav).toBeHidden();
  });

  test('the profile button leads to /profile; its popover shows name, email and My Profile; the avatar shows initials', async ({ page }) => {
    await signInAndLand(page, accounts.admin, /\/home$/);
    const profile = page.getByRole('link', { name: /^Adam Admin\s*, profile$/ });
    await expect(profile).toContainText('AA');
    await profile.click();
    await expect(page).toHaveURL(/\/profile$/);
    await page.getByRole('button', { name: 'Account details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Profile' });
    await expect(dialog).toContainText('Adam Admin');
    await expect(dialog).toContainText(accounts.admin);
    await dialog.getByRole('link', { name: 'My Profile' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
  });
});
