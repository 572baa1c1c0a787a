import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

  test('a page arriving in pieces is never painted with half the screen: the card does not jump', async ({ page, request }) => {
    // /login's own HTML, sent in two parts half a second apart, the cut in the middle of the card (as a slow network
    // or a busy server may deliver it). Only the document matters here: its scripts are not served.
    const html = await (await request.get('/login')).text();
    const cut = html.indexOf('Please sign-in to your account');
    expect(cut, 'the card holds the subtitle').toBeGreaterThan(0);
    const server = createServer((req, res) => {
      if (req.url !== '/login') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write(html.slice(0, cut));
      setTimeout(() => res.end(html.slice(cut)), 500);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await page.addInitScript(() => {
        const w = window as unknown as { shifts: number[] };
        w.shifts = [];
        new PerformanceObserver((list) => list.getEntries().forEach((e) => w.shifts.push((e as unknown as { value: number }).value))).observe({
          type: 'layout-shift',
          buffered: true,
        });
      });
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/login`);
      await expect(page.getByText('Powered by Tanya')).toBeVisible();
      // Two frames after the whole screen is there: any shift has been reported.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      expect(await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).toEqual([]);
    } finally {
      server.close();
    }
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
