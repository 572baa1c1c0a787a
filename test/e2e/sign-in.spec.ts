import { expect, test } from '@playwright/test';
import { accounts, password, signIn, signInThroughFormAndLand } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';

test.describe('sign-in', () => {
  test('the login screen shows the spec texts and passes axe', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    await expect(page.getByText('Please sign-in to your account')).toBeVisible();
    await expect(page.getByPlaceholder('Enter your email')).toBeVisible();
    await expect(page.getByPlaceholder('Enter your password')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign in with Microsoft' })).toBeVisible();
    // Live first, as on the landing page: the prerendered Sign in is drawn inactive until the page hydrates, and its
    // change of colour then could be measured half-way (once in a full run, in light).
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page);
  });

  test('superuser lands on Home with the superuser links', async ({ page }) => {
    await signInThroughFormAndLand(page, accounts.superuser, /\/home$/);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link')).toHaveText(['Home', 'Clients', 'System Prompts', 'Feedback Inbox']);
    await expect(page.getByRole('heading', { name: 'Client Management' })).toBeVisible();
  });

  test('admin lands on Home with the admin links', async ({ page }) => {
    await signInThroughFormAndLand(page, accounts.admin, /\/home$/);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link')).toHaveText(['Home', 'Chat', 'Users', 'Departments', 'Global Policy', 'Feedback Inbox']);
  });

  test('a plain user lands on Chat without the sidebar', async ({ page }) => {
    await signInThroughFormAndLand(page, accounts.user, /\/chat$/);
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    const stored = await page.evaluate(() => ({
      token: localStorage.getItem('token'),
      refreshToken: localStorage.getItem('refreshToken'),
      user: JSON.parse(localStorage.getItem('user') ?? 'null'),
    }));
    expect(stored.token).toBeTruthy();
    expect(stored.refreshToken).toBeTruthy();
    expect(stored.user).toMatchObject({ email: accounts.user, role: 'user', package_name: 'premium' });
  });

  test('wrong password shows the server detail in a dismissible banner', async ({ page }) => {
    await signIn(page, accounts.user, 'not-the-password');
    const banner = page.getByRole('alert').filter({ hasText: 'Incorrect email or password' });
    await expect(banner).toBeVisible();
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await expect(banner).toHaveCount(0);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('empty fields are refused on the client', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
  });

  test('while signing in the button reads Signing in... and inputs are disabled', async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/v1/auth/login**', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/login');
    await page.getByLabel('Email').fill(accounts.admin);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Signing in...' })).toBeDisabled();
    await expect(page.getByLabel('Email')).toBeDisabled();
    await expect(page.getByLabel('Password')).toBeDisabled();
    release();
    await expect(page).toHaveURL(/\/home$/);
  });

  test('an error carried in the URL is shown once and cleared', async ({ page }) => {
    await page.goto('/login?error=subscription_expired');
    await expect(
      page.getByText('Your subscription is not active. Please contact your administrator to renew your subscription.'),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/login?error=something_else');
    await expect(page.getByText('Authentication failed. Please try again.')).toBeVisible();
  });

  test('a stored single sign-on error is shown once and cleared', async ({ page }) => {
    await page.goto('/login');
    // Only once the screen is up and running: set earlier, the first mount would consume it before the reload. The
    // prerendered heading shows before the app runs; Sign in is enabled once it has hydrated.
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
    await page.evaluate(() => localStorage.setItem('sso_error', 'No access token received'));
    await page.reload();
    await expect(page.getByText('No access token received')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('sso_error'))).toBeNull();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    await expect(page.getByText('No access token received')).toHaveCount(0);
  });

  test('Sign in with Microsoft goes to the SSO endpoint, which explains it is not configured yet', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign in with Microsoft' }).click();
    await expect(page).toHaveURL(/\/login$/);
    // The demo organisation has no Microsoft configuration; when other tests' clients share this address, it is not
    // known which organisation is meant. Either way the person is told, on the login screen.
    await expect(
      page.getByText(/^(Microsoft sign-in is not configured for this organisation yet\.|Single sign-on is not set up for this address\. Please sign in with your email and password\.)$/),
    ).toBeVisible();
  });

  test('logout revokes the session and returns to /login', async ({ page, request }) => {
    await signInThroughFormAndLand(page, accounts.admin, /\/home$/);
    const refreshToken = await page.evaluate(() => localStorage.getItem('refreshToken'));
    await page.getByRole('link', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    const refresh = await request.post('/api/v1/auth/refresh', { headers: { Authorization: `Bearer ${refreshToken}` } });
    expect(refresh.status()).toBe(401);
    await page.goto('/home');
    await expect(page).toHaveURL(/\/login$/);
  });
});
