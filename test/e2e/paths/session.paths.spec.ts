import { expect, test, type Page } from '@playwright/test';
import { sessionMachine } from '../../../machines/session.machine';
import { coverageOf, formatCoverage, generatePaths, type ModelPath } from '../../model/support/model-paths';
import { accounts, password } from '../helpers/accounts';

/**
 * The session machine's generated paths, driven through the real UI (ARCHITECTURE.md: "the same generated machine
 * paths also drive Playwright"). Only what a person can cause in a browser is generated, so the same paths run
 * against staging (E2E_BASE_URL, E2E_USER_EMAIL, E2E_PASSWORD):
 * - a failed refresh is caused by a revoked refresh token, a refresh by an invalid access token, both followed by
 *   a reload (the tab's session starts from storage);
 * - what happens by itself is not generated: `session.landed` (the app lands after sign-in) and the logout that
 *   follows an expiry (the app goes to /logout);
 * - what cannot be caused without stubbing the server is left to the model test: a failed logout call, a profile
 *   update replacing the session, a logout while a refresh is in flight.
 */
/** A machine event as generated; payloads only matter to the model, the browser step reads the type. */
type Step = { type: string } & Record<string, unknown>;

const login: Step = { type: 'session.login', email: accounts.user, password };

function eventsFor(value: string): Step[] {
  switch (value) {
    case 'loggedOut':
      return [login, { type: 'session.dismissError' }];
    case 'authenticating':
      return [{ type: 'xstate.done.actor.login', output: {} }, { type: 'xstate.error.actor.login', error: new Error('Incorrect email or password') }];
    case 'loggedIn':
      return [{ type: 'session.refresh' }, { type: 'session.logout' }, { type: 'session.userLoaded', user: { id: 'from-the-server' } }];
    case 'refreshing':
      return [{ type: 'xstate.done.actor.refresh', output: { access_token: 'a', refresh_token: 'r' } }, { type: 'xstate.error.actor.refresh', error: new Error('401') }];
    case 'expired':
      return [{ type: 'session.logout' }];
    case 'loggingOut':
      return [{ type: 'xstate.done.actor.logout', output: undefined }];
    default:
      return [];
  }
}

const spec = {
  machine: sessionMachine,
  inputs: [{}],
  events: (s: { value: unknown }) => eventsFor(s.value as string) as never[],
  key: (s: { value: unknown }) => JSON.stringify(s.value),
};
// A path that is the start of a longer one adds no check of its own in a browser: run the longer one only.
const all = generatePaths(spec as never) as ModelPath<typeof sessionMachine>[];
const paths = all.filter((p) => !all.some((q) => q !== p && q.events.length > p.events.length && p.events.every((e, i) => q.events[i]!.type === e.type)));

const storage = (page: Page) =>
  page.evaluate(() => ({ token: localStorage.getItem('token'), refreshToken: localStorage.getItem('refreshToken') }));
const banner = (page: Page) => page.getByRole('alert').filter({ hasText: 'Incorrect email or password' });

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
    case 'session.userLoaded':
      await page.reload();
      await expect(page).toHaveURL(/\/chat/);
      await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
      return;
    default:
      throw new Error(`no browser step for ${event.type}`);
  }
}

test.describe('session paths (generated from machines/session.machine.ts)', () => {
  test.afterAll(() => {
    console.log(formatCoverage('session (e2e paths)', coverageOf(sessionMachine, paths), paths.length));
  });

  for (const path of paths) {
    test(path.description, async ({ page }) => {
      await page.goto('/login');
      await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
      for (const [i, event] of path.events.entries()) {
        await test.step(event.type, () => perform(page, event, path.events[i + 1]));
      }
    });
  }
});
