import { expect, test } from '@playwright/test';
import { accounts, signInAndLand } from './helpers/accounts';

// /login is rendered into its own HTML at build time (scripts/prerender-plugin.ts): it paints before the
// JavaScript runs, and the app then hydrates that markup instead of replacing it.

test.describe('first paint', () => {
  test("/login's HTML already holds the screen and the sign-in form", async ({ request }) => {
    const res = await request.get('/login');
    expect(res.status()).toBe(200);
    expect(res.headers()['cache-control']).toContain('no-cache');
    const html = await res.text();
    expect(html).toMatch(/<h1[^>]*>Welcome Back<\/h1>/);
    expect(html).toContain('Please sign-in to your account');
    expect(html).toMatch(/<form[^>]*>/);
    expect(html).toMatch(/<input[^>]*name="email"/);
    expect(html).toMatch(/<input[^>]*name="password"[^>]*type="password"|<input[^>]*type="password"[^>]*name="password"/);
    expect(html).toContain('Sign in with Microsoft');
    // With a query or a trailing slash it is the same screen.
    expect(await (await request.get('/login/?error=subscription_expired')).text()).toContain('Welcome Back');
    // Other screens keep the empty app shell.
    expect(await (await request.get('/chat')).text()).toContain('<div id="root"></div>');
  });

  test('without JavaScript the screen is there and the form cannot be submitted', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto('/login');
      await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
      await expect(page.getByPlaceholder('Enter your email')).toBeVisible();
      // Until the app has taken over, typing would be lost and a native submit would put the fields in the URL.
      await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeDisabled();
      await expect(page.getByPlaceholder('Enter your password')).not.toBeEditable();
    } finally {
      await context.close();
    }
  });

  test('the app hydrates the prerendered markup without a mismatch, and the form works', async ({ page }) => {
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    // Keep the heading the parser created: after hydration it must still be the one in the document.
    await page.addInitScript(() => {
      const w = window as unknown as { prerenderedHeading?: Element };
      new MutationObserver((_, observer) => {
        const h1 = document.querySelector('#root h1');
        if (h1) {
          w.prerenderedHeading = h1;
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/login');
    await expect(page.getByLabel('Email')).toBeEditable();
    // Hydrated: the single sign-on link now names the page's origin.
    await expect(page.getByRole('link', { name: 'Sign in with Microsoft' })).toHaveAttribute('href', /origin=http/);
    expect(await page.evaluate(() => (window as unknown as { prerenderedHeading?: Element }).prerenderedHeading === document.querySelector('#root h1'))).toBe(true);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    expect(problems.filter((p) => /hydrat|did not match|server rendered/i.test(p))).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('a signed-in visitor opening /login still lands in the app', async ({ page }) => {
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await signInAndLand(page, accounts.admin, /\/home$/);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/chat$|\/home$/);
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toHaveCount(0);
    expect(problems).toEqual([]);
  });
});

test.describe('first paint offline', () => {
  test.use({ serviceWorkers: 'allow' });

  test('once the service worker is installed, /login opens offline from its precache, prerendered, and works', async ({ page, context }) => {
    await page.goto('/login');
    // The worker registers a few seconds after load (src/app/pwa.ts), then precaches the build; it controls the
    // navigations after its activation.
    await expect
      .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? null), { timeout: 25_000 })
      .toBe('activated');
    await context.setOffline(true);
    const res = await page.goto('/login');
    expect(res?.fromServiceWorker()).toBe(true);
    expect(await res?.text()).toMatch(/<h1[^>]*>Welcome Back<\/h1>/);
    await expect(page.getByLabel('Email')).toBeEditable();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
  });
});
