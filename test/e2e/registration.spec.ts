import { expect, test, type Page } from '@playwright/test';
import { accounts, isLocalServer, signIn, signInAndLand } from './helpers/accounts';
import {
  activateByApi,
  activationPath,
  adminToken,
  codeOf,
  deactivateRegistered,
  expireActivation,
  registerPerson,
} from './helpers/activation';
import { expectNoAxeViolations } from './helpers/axe';

/** Addresses this file registered, deactivated after each test. */
const registered: string[] = [];
const uniqueEmail = (label: string) => {
  const email = `${label}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@demo.local`;
  registered.push(email);
  return email;
};
const fullName = (page: Page) => page.getByRole('textbox', { name: 'Full Name' });
const emailAddress = (page: Page) => page.getByRole('textbox', { name: 'Email address' });
const createUser = (page: Page) => page.getByRole('button', { name: 'Create User' });

async function expectAccessibleInBothSchemes(page: Page) {
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
}

test.afterEach(({ request }) => deactivateRegistered(request, registered));

test.describe('registering people', () => {
  test('the register form checks its fields before sending, and shows a taken address in a dismissible banner', async ({ page }) => {
    await signInAndLand(page, accounts.admin, /\/home$/);
    await page.goto('/register?role=user');
    await expect(page.getByRole('heading', { name: 'New User Information', level: 1 })).toBeVisible();
    await expectAccessibleInBothSchemes(page);

    let registerCalls = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/auth/register')) registerCalls++;
    });
    await createUser(page).click();
    await expect(page.getByText('Full name is required')).toBeVisible();
    await expect(page.getByText('Email is required')).toBeVisible();
    await fullName(page).fill('Taken Address');
    await emailAddress(page).fill('not-an-address');
    await createUser(page).click();
    await expect(page.getByText('Enter a valid email address')).toBeVisible();
    expect(registerCalls).toBe(0);

    await emailAddress(page).fill(accounts.user);
    await createUser(page).click();
    const banner = page.getByRole('alert').filter({ hasText: 'A user with this email address already exists' });
    await expect(banner).toBeVisible();
    expect(registerCalls).toBe(1);
    await expect(page).toHaveURL(/\/register\?role=user$/);
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await expect(banner).toBeHidden();

    await page.getByRole('link', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/users$/);
  });

  test('an admin asking for an admin gets the server sentence', async ({ page }) => {
    await signInAndLand(page, accounts.admin, /\/home$/);
    await page.goto('/register?role=admin');
    await fullName(page).fill('Would Be Admin');
    await emailAddress(page).fill(uniqueEmail('would-be-admin'));
    await createUser(page).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Admins can only create regular users' })).toBeVisible();
  });

  if (isLocalServer) {
    test('a registered person activates from the mailed link, signs in, completes the profile and reaches the chat', async ({ page }) => {
      test.slow();
      const email = uniqueEmail('new-colleague');
      const chosen = 'a-good-first-password';
      await signInAndLand(page, accounts.admin, /\/home$/);
      await page.goto('/register?role=user');
      await fullName(page).fill('  New Colleague ');
      await emailAddress(page).fill(email.toUpperCase());
      await createUser(page).click();
      await expect(page.getByText('User registered successfully')).toBeVisible();
      await expect(page).toHaveURL(/\/users$/);
      await page.goto('/logout');
      await expect(page).toHaveURL(/\/login$/);

      // The address is stored lower-cased; the mail went to it.
      const link = await activationPath(email);
      await page.goto(link);
      await expect(page.getByRole('heading', { name: 'Activate your account' })).toBeVisible();
      await expectAccessibleInBothSchemes(page);
      const activate = page.getByRole('button', { name: 'Activate Account' });
      await expect(activate).toBeDisabled();
      await page.getByLabel('New password').fill(chosen);
      await page.getByLabel('Confirm password').fill(`${chosen}x`);
      await expect(page.getByText('Passwords do not match')).toBeVisible();
      await expect(activate).toBeDisabled();
      await page.getByLabel('Confirm password').fill(chosen);
      await activate.click();
      await expect(page.getByRole('heading', { name: 'Account activated!' })).toBeVisible();
      await page.getByRole('link', { name: 'Go to Login' }).click();
      await expect(page).toHaveURL(/\/login$/);

      await signIn(page, email, chosen);
      await expect(page).toHaveURL(/\/profile$/);
      await expect(page.getByText('Please complete your profile:')).toBeVisible();
      await expect(page.getByLabel('Name')).toHaveValue('New Colleague');
      await page.getByRole('button', { name: /Department/ }).click();
      await page.getByRole('option', { name: 'Engineering' }).click();
      await page.getByRole('button', { name: /Unit/ }).click();
      await page.getByRole('option', { name: 'Platform' }).click();
      await page.getByRole('button', { name: 'Update Profile' }).click();
      await expect(page).toHaveURL(/\/chat$/);

      // The link worked once.
      await page.goto('/logout');
      await page.goto(link);
      // Said as the page opens, before any password is typed.
      await expect(page.getByRole('heading', { name: 'Link already used' })).toBeVisible();
      await expect(page.getByLabel('New password')).toHaveCount(0);
      await page.getByRole('link', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(/\/login$/);
    });

    test('an expired link offers a new one, which arrives and works', async ({ page, request }) => {
      const email = uniqueEmail('late-colleague');
      await registerPerson(request, await adminToken(request), email);
      const first = await activationPath(email);
      expireActivation(codeOf(first));

      await page.goto(first);
      await expect(page.getByRole('heading', { name: 'Link expired' })).toBeVisible();
      await expect(page.getByLabel('New password')).toHaveCount(0);
      await expectAccessibleInBothSchemes(page);
      await page.getByRole('button', { name: 'Send me a new link' }).click();
      await expect(page.getByText('A new activation link is on its way to your e-mail address.')).toBeVisible();

      const second = await activationPath(email, 2);
      expect(second).not.toBe(first);
      await activateByApi(request, codeOf(second), 'late-but-fine-1');
      await signIn(page, email, 'late-but-fine-1');
      await expect(page).toHaveURL(/\/profile$/);
    });
  }
});
