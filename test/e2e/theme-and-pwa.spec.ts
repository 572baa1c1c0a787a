import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, expect, test } from '@playwright/test';
import { accounts, password, signInAndLand, signInByApi } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';

const themeColor = (page: import('@playwright/test').Page) =>
  page.locator('meta[name="theme-color"]').getAttribute('content');

test.describe('theme colour', () => {
  test('primary on Login, light or dark elsewhere, re-applied when the scheme changes', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/login');
    await expect.poll(() => themeColor(page)).toBe('rgb(222, 200, 78)');
    await page.goto('/playground');
    await expect.poll(() => themeColor(page)).toBe('#F9F9F9');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => themeColor(page)).toBe('#1f2937');
  });

  test('chat shades on the Chat route', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await signInAndLand(page, accounts.user, /\/chat$/);
    await expect.poll(() => themeColor(page)).toBe('#E5E7EB');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => themeColor(page)).toBe('#111827');
    await page.goto('/profile');
    await expect.poll(() => themeColor(page)).toBe('#1f2937');
  });
});

test.describe('accessibility', () => {
  test('axe finds nothing on /profile (light and dark)', async ({ page }) => {
    await signInByApi(page, accounts.user);
    await page.goto('/profile');
    await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page);
  });
});

test.describe('PWA', () => {
  test.use({ serviceWorkers: 'allow' });

  test('the service worker controls the root scope, raises the offline notice once and not on /login, and Chromium finds the app installable', async ({ request, baseURL, launchOptions }) => {
    test.slow();
    // Chromium never calls an incognito profile installable, so this test runs in a real (persistent) profile.
    const profile = mkdtempSync(path.join(tmpdir(), 'tanya-pwa-'));
    const context = await chromium.launchPersistentContext(profile, { ...launchOptions, baseURL });
    const notice = (page: import('@playwright/test').Page) => page.getByText('Tanya is installed and ready to work offline.');
    /** The worker registers a while after the page has settled (src/lib/after-load.ts), then installs. */
    const installed = (page: import('@playwright/test').Page) =>
      expect
        .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state === 'activated'), { timeout: 45_000 })
        .toBe(true);
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      // Installed while the sign-in form shows: its notice waits until the person has signed in and landed.
      await page.goto('/login');
      await installed(page);
      await page.waitForTimeout(1500);
      await expect(notice(page)).toHaveCount(0);
      // Signed in on the same page (no reload), as a person would.
      await page.getByLabel('Email').fill(accounts.user);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page).toHaveURL(/\/chat$/);
      await expect(notice(page)).toBeVisible({ timeout: 15_000 });
      // Once per browser: a worker installed afresh later (here: the old one removed) says nothing again.
      await page.evaluate(async () => {
        for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
      });
      await page.reload();
      await installed(page);
      await page.waitForTimeout(1500);
      await expect(notice(page)).toHaveCount(0);
      const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
      expect(new URL(scope).pathname).toBe('/');
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      expect(installabilityErrors).toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
    const sw = await request.get('/sw.js');
    expect(sw.status()).toBe(200);
    expect(sw.headers()['cache-control']).toContain('no-cache');
    const manifest = await request.get('/manifest.webmanifest');
    expect(manifest.status()).toBe(200);
    const body = await manifest.json();
    expect(body.icons.map((i: { sizes: string }) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const icon of body.icons) expect((await request.get(`/${icon.src}`)).headers()['content-type']).toBe('image/png');
  });

  test('the SPA answers deep links with index.html (history fallback)', async ({ request }) => {
    const res = await request.get('/clients/123/users');
    expect(res.status()).toBe(200);
    expect(await res.text()).toContain('<div id="root"></div>');
    const api = await request.get('/api/v1/nope');
    expect(api.status()).toBe(404);
    expect(await api.json()).toMatchObject({ status: 'error' });
  });
});
