import { expect, test, type Page } from '@playwright/test';
import { sessionMachine, USER_FETCH_FAILED } from '../../../machines/session.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, password, signInAndLand } from '../helpers/accounts';
import { errorEnvelope, messageBox, type Step } from './paths-support';
import { sessionPaths } from './session.paths-model';

/**
 * The session machine's generated paths, driven through the real UI (ARCHITECTURE.md: "the same generated machine
 * paths also drive Playwright"). Only what a person can cause in a browser is generated, so the same paths run
 * against staging (E2E_BASE_URL, E2E_USER_EMAIL, E2E_PASSWORD):
 * - a failed refresh is caused by a revoked refresh token, a refresh by an invalid access token, both followed by
 *   a reload (the tab's session starts from storage);
 * - what happens by itself is not generated: `session.landed` (the app lands after sign-in) and the logout that
 *   follows an expiry (the app goes to /logout);
 * - a restored session (a tab opened on a signed-in browser: sign in, then reload) loads the user once
 *   (`loggedIn.loadingUser`); its success shows the chat again;
 * - the user's load failing (`xstate.error.actor.loadUser`, the toast 'Failed to fetch user data'), forced in the
 *   browser with a `page.route` stub answering GET /users/me with a 500, locally and against a deployment alike;
 * - what cannot be caused without stubbing the server is left to the model test: a failed logout call, a profile
 *   update replacing the session, a logout while a refresh is in flight.
 * The model (events per state, key) is in session.paths-model.ts; of the generated paths the browser runs the longest
 * ones, and of those only as many as reach every state and transition the others reach (paths-support.ts).
 */
const paths = sessionPaths;

const storage = (page: Page) =>
  page.evaluate(() => ({ token: localStorage.getItem('token'), refreshToken: localStorage.getItem('refreshToken') }));
const banner = (page: Page) => page.getByRole('alert').filter({ hasText: 'Incorrect email or password' });

/** GET /api/v1/users/me (the client adds a cache-busting query). */
const ME = (url: URL) => url.pathname.endsWith('/api/v1/users/me');

/**
 * A tab opened on a signed-in browser: signed in before, then the page loads again and the session comes from
 * storage. A path that starts with `session.refresh` lets that step do the reload (with a stale token).
 */
async function restore(page: Page, events: Step[]) {
  await signInAndLand(page, accounts.user, /\/chat$/);
  if (events[0]?.type === 'session.refresh') return;
  if (events[0]?.type === 'xstate.error.actor.loadUser') await page.route(ME, (route) => route.fulfill(errorEnvelope(500, 'Internal Server Error')));
  const loaded = page.waitForResponse((r) => ME(new URL(r.url())) && r.request().method() === 'GET');
  await page.reload();
  await loaded;
}

/** What a person does for each generated event; `next` tells how the pending call should end. */
async function perform(page: Page, event: Step, next: Step | undefined) {
  switch (event.type) {
    case 'session.login': {
      const fails = next?.type === 'xstate.error.actor.login';
      await page.getByLabel('Email').fill(accounts.user);
      await page.getByLabel('Password').fill(fails ? `${password}-wrong` : password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      return;
    }
    case 'xstate.done.actor.login':
      await expect(page).toHaveURL(/\/chat$/);
      expect((await storage(page)).token).toBeTruthy();
      return;
    case 'xstate.error.actor.login':
      await expect(banner(page)).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
      return;
    case 'session.dismissError':
      if (await banner(page).count()) {
        await banner(page).getByRole('button', { name: 'Dismiss' }).click();
        await expect(banner(page)).toHaveCount(0);
      }
      return;
    case 'session.refresh': {
      // The access token goes stale (and, for a failing refresh, the refresh token is revoked); the reloaded
      // tab's first call meets the 401.
      const failing = next?.type === 'xstate.error.actor.refresh';
      await page.evaluate((revoke) => {
        localStorage.setItem('token', 'stale-access-token');
        if (revoke) localStorage.setItem('refreshToken', 'revoked-refresh-token');
      }, failing);
      await page.reload();
      return;
    }
    case 'xstate.done.actor.refresh':
      await expect.poll(async () => (await storage(page)).token).not.toBe('stale-access-token');
      await expect(page).toHaveURL(/\/chat/);
      return;
    case 'xstate.error.actor.refresh':
      await expect(page.getByText('Your session has expired. Please login again.')).toBeVisible();
      return;
    case 'session.logout':
      // After an expiry the app logs out by itself; otherwise the person opens Logout.
      if (!/\/login$/.test(page.url())) await page.goto('/logout');
      return;
    case 'xstate.done.actor.logout':
      await expect(page).toHaveURL(/\/login$/);
      expect(await storage(page)).toEqual({ token: null, refreshToken: null });
      return;
    case 'xstate.done.actor.loadUser':
      await expect(page).toHaveURL(/\/chat/);
      await expect(messageBox(page)).toBeVisible();
      await expect(page.getByText(USER_FETCH_FAILED)).toHaveCount(0);
      return;
    case 'xstate.error.actor.loadUser':
      // The stored user stays: the chat is still there, with the toast.
      await expect(page.getByText(USER_FETCH_FAILED)).toBeVisible();
      await expect(messageBox(page)).toBeVisible();
      await page.unroute(ME);
      return;
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

test.describe('session paths (generated from machines/session.machine.ts)', () => {
  test.afterAll(() => {
    console.log(formatCoverage('session (e2e paths)', coverageOf(sessionMachine, paths as never), paths.length));
  });

  for (const path of paths) {
    test(`${'user' in path.input ? 'restored' : 'signed out'}: ${path.description}`, async ({ page }) => {
      if ('user' in path.input) {
        await restore(page, path.events);
      } else {
        await page.goto('/login');
        await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
      }
      for (const [i, event] of path.events.entries()) {
        await test.step(event.type, () => perform(page, event, path.events[i + 1]));
      }
    });
  }
});
