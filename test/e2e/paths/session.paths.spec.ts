import { expect, test, type Page } from '@playwright/test';
import { paths as apiPaths } from '../../../contract/api-paths';
import { SSO_AUTH_FAILED, SSO_NO_ACCESS_TOKEN, SSO_SUCCESS } from '../../../contract/sso-constants';
import { sessionMachine, THEME_SAVE_FAILED, USER_FETCH_FAILED } from '../../../machines/session.machine';
import { coverageOf, formatCoverage } from '../../model/support/model-paths';
import { accounts, isLocalServer, password, signInAndLand } from '../helpers/accounts';
import { chromiumArgs, wholeChromium } from '../helpers/chromium-args';
import { errorEnvelope, messageBox, type Step } from './paths-support';
import { SSO_AFTER, SSO_NO_TOKEN, sessionPaths, statesBefore } from './session.paths-model';

/**
 * The session machine's generated paths, driven through the real UI (ARCHITECTURE.md: "the same generated machine
 * paths also drive Playwright"). Only what a person can cause in a browser is generated, and every path runs locally
 * and against a deployment alike (E2E_BASE_URL, E2E_USER_EMAIL, E2E_PASSWORD):
 * - a refresh is caused by a stale access token, a failed one by a revoked refresh token, both followed by a reload
 *   (the tab's session starts from storage); a logout while the refresh is under way holds the refresh call
 *   (`page.route`) until the person has pressed Logout;
 * - a restored session (a tab opened on a signed-in browser: sign in, then reload) loads the user once
 *   (`loggedIn.loadingUser`); its failure (the toast 'Failed to fetch user data') is a stubbed 500 on GET /users/me;
 * - a refused sign-in is a wrong password locally; against a deployment the login call is stubbed with the server's
 *   401, because a deployment counts failed sign-ins and would lock the QA account;
 * - single sign-on ends on /auth/sso as the provider's redirect leaves it: with the tokens of a real sign-in (through
 *   the public login API: they load the person, 'Successfully logged in', Home 2 s later), with tokens no server
 *   issued (they load nobody: 'Authentication failed'), or with no access token; signed in, a callback replaces the
 *   session. 'Sign in with Microsoft' goes to the provider's page, which is a stub answering the app's own
 *   /auth/social/microsoft/ call (neither a local provider nor Microsoft is needed), and the browser's Back brings
 *   the sign-in page from the back/forward cache (`pageshow`): Playwright turns that cache off by default, this file
 *   turns it on (the `launchOptions` below; a worker of its own);
 * - the profile saved as it is (the same department and unit) replaces the session with the server's answer;
 * - Dark in the account popover is shown at once; its save (PATCH /users/me/preferences) is always answered by a
 *   stub, a success or a 500: the demo accounts' theme is what every other spec's light/dark checks assume;
 * - a failed logout call (`xstate.error.actor.logout`) is the call's connection dropped (route.abort);
 * - what happens by itself is generated where it follows: landing after a sign-in (`session.landed`), Home 2 s after
 *   'Successfully logged in', the logout that follows an expiry (the app goes to /logout).
 * Not generated, as a browser cannot cause it: a logout during the 2 s of 'Successfully logged in' (the callback
 * screen offers no way out and a page load starts the session afresh from storage); the sign-in page's 'Loading...'
 * while the browser is on its way to the provider (Playwright cannot read a page whose navigation is pending; the
 * cached page's return checks that it is gone).
 * The model (events per state, key) is in session.paths-model.ts; of the generated paths the browser runs the longest
 * ones, and of those only as many as reach every state and transition the others reach (paths-support.ts).
 */
const paths = sessionPaths;

test.use({
  launchOptions: {
    // The whole browser: the headless shell the other specs run in has no back/forward cache.
    executablePath: wholeChromium,
    args: chromiumArgs,
    // The back/forward cache, so the browser's Back from the provider shows the sign-in page as it was left.
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
  },
});

const storage = (page: Page) =>
  page.evaluate(() => ({ token: localStorage.getItem('token'), refreshToken: localStorage.getItem('refreshToken') }));
/** The sign-in page's banner (a toast is an alertdialog, not an alert). */
const banner = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });
const shownTheme = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme ?? 'system');
const microsoft = (page: Page) => page.getByRole('link', { name: 'Sign in with Microsoft' });

/** The app's API calls by path (the client adds a cache-busting query). */
const api = (path: string) => (url: URL) => url.pathname.endsWith(`/api/v1${path}`);
const ME = api(apiPaths.me);
const LOGIN = api(apiPaths.login);
const REFRESH = api(apiPaths.refresh);
const LOGOUT = api(apiPaths.logout);
const PREFERENCES = api(apiPaths.preferences);
/** 'Sign in with Microsoft' leads here first; the server sends the browser on to the provider. */
const SSO_START = (url: URL) => url.pathname.startsWith(`/api/v1${apiPaths.microsoftSso}`);
const PROVIDER_HEADING = 'Sign in to your account';

/** A real sign-in's tokens (the public login API), as the provider's redirect would bring them to /auth/sso. */
async function realTokens(page: Page) {
  const response = await page.request.post('/api/v1/auth/login', { data: { email: accounts.user, password } });
  expect(response.ok()).toBe(true);
  const { access_token, refresh_token } = ((await response.json()) as { data: { access_token: string; refresh_token: string } }).data;
  return `#${new URLSearchParams({ access_token, refresh_token })}`;
}

/** What a path holds between its steps: a call held until a later step lets it go. */
interface Held {
  release?: () => void;
}

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

/** What a person does for each generated event, from the session state `at`; `next` tells how a pending call ends. */
async function perform(page: Page, held: Held, event: Step, at: string, next: Step | undefined) {
  switch (event.type) {
    case 'session.login': {
      const fails = next?.type === 'xstate.error.actor.login';
      // A deployment counts failed sign-ins: there the refusal is the server's answer, stubbed.
      if (fails && !isLocalServer) await page.route(LOGIN, (route) => route.fulfill(errorEnvelope(401, 'Incorrect email or password')), { times: 1 });
      await page.getByLabel('Email').fill(accounts.user);
      await page.getByLabel('Password').fill(fails && isLocalServer ? `${password}-wrong` : password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      return;
    }
    case 'xstate.done.actor.login':
      await expect(page).toHaveURL(/\/chat$/);
      expect((await storage(page)).token).toBeTruthy();
      return;
    case 'xstate.error.actor.login':
      await expect(banner(page, 'Incorrect email or password')).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
      return;
    case 'session.dismissError': {
      const shown = page.getByRole('alert').filter({ has: page.getByRole('button', { name: 'Dismiss' }) });
      await expect(shown).toHaveCount(1);
      await shown.getByRole('button', { name: 'Dismiss' }).click();
      await expect(shown).toHaveCount(0);
      return;
    }
    case 'session.landed':
      // The app has landed where a sign-in leads the e2e user: the chat, ready for a question.
      await expect(page).toHaveURL(/\/chat$/, { timeout: 10_000 });
      await expect(page.getByRole('heading', { name: 'How can I help you today?' })).toBeVisible();
      await expect(messageBox(page)).toBeEditable();
      return;
    case 'session.ssoCallback': {
      const fragment = event.fragment as string;
      if (fragment === SSO_NO_TOKEN) {
        await page.goto(`/auth/sso${SSO_NO_TOKEN}`);
        await expect(page).toHaveURL(/\/login$/);
        await expect(banner(page, SSO_NO_ACCESS_TOKEN)).toBeVisible();
        return;
      }
      // Tokens no server issued load nobody; a real sign-in's load the person.
      const tokens = next?.type === 'xstate.error.actor.loadUser' ? '#access_token=forged-access&refresh_token=forged-refresh' : await realTokens(page);
      await page.goto(`/auth/sso${tokens}`);
      return;
    }
    case 'xstate.done.actor.loadUser':
      if (at === 'ssoLoadingUser') {
        await expect(page.getByRole('heading', { name: SSO_SUCCESS })).toBeVisible();
        // The tokens are gone from the address bar at once.
        expect(new URL(page.url()).hash).toBe('');
        return;
      }
      await expect(page).toHaveURL(/\/chat/);
      await expect(messageBox(page)).toBeVisible();
      await expect(page.getByText(USER_FETCH_FAILED)).toHaveCount(0);
      return;
    case 'xstate.error.actor.loadUser':
      if (at === 'ssoLoadingUser') {
        await expect(page).toHaveURL(/\/login$/);
        await expect(banner(page, SSO_AUTH_FAILED)).toBeVisible();
        expect(await storage(page)).toEqual({ token: null, refreshToken: null });
        return;
      }
      // The stored user stays: the chat is still there, with the toast.
      await expect(page.getByText(USER_FETCH_FAILED)).toBeVisible();
      await expect(messageBox(page)).toBeVisible();
      await page.unroute(ME);
      return;
    case SSO_AFTER:
      // Home two seconds later: the e2e user's home is the chat.
      await expect(page).toHaveURL(/\/chat$/, { timeout: 10_000 });
      expect((await storage(page)).token).toBeTruthy();
      return;
    case 'session.ssoStart': {
      // The server would send the browser on to Microsoft: the stub is the provider's page.
      await page.route(SSO_START, (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: `<!doctype html><title>Provider</title><h1>${PROVIDER_HEADING}</h1>` }),
      );
      // Marks this page, to tell it when it comes back from the back/forward cache (a fresh load has no mark).
      await page.evaluate(() => ((window as { leftForProvider?: boolean }).leftForProvider = true));
      await microsoft(page).click();
      await expect(page.getByRole('heading', { name: PROVIDER_HEADING })).toBeVisible();
      expect(new URL(page.url()).searchParams.get('origin')).toBe(new URL(page.url()).origin);
      await page.unroute(SSO_START);
      return;
    }
    case 'session.ssoAbandoned':
      // Back without finishing: the same page as left (not loaded again), no longer 'Loading...', the form usable.
      await page.goBack({ waitUntil: 'commit' });
      await expect(microsoft(page)).toBeVisible();
      expect(await page.evaluate(() => (window as { leftForProvider?: boolean }).leftForProvider)).toBe(true);
      await expect(microsoft(page)).not.toHaveAttribute('aria-disabled', 'true');
      await expect(page.getByLabel('Email')).toBeEnabled();
      return;
    case 'session.refresh': {
      // The access token goes stale (and, for a failing refresh, the refresh token is revoked); the reloaded
      // tab's first call meets the 401. A logout next holds the refresh call until the person has pressed it.
      const failing = next?.type === 'xstate.error.actor.refresh';
      if (next?.type === 'session.logout') {
        const asked = new Promise<void>((resolve) => (held.release = resolve));
        await page.route(REFRESH, async (route) => {
          await asked;
          await route.abort().catch(() => {});
        });
      }
      await page.evaluate((revoke) => {
        localStorage.setItem('token', 'stale-access-token');
        if (revoke) localStorage.setItem('refreshToken', 'revoked-refresh-token');
      }, failing);
      const refreshing = page.waitForRequest((r) => REFRESH(new URL(r.url())));
      await page.reload();
      await refreshing;
      return;
    }
    case 'xstate.done.actor.refresh':
      await expect.poll(async () => (await storage(page)).token).not.toBe('stale-access-token');
      await expect(page).toHaveURL(/\/chat/);
      await expect(messageBox(page)).toBeVisible();
      return;
    case 'xstate.error.actor.refresh':
      await expect(page.getByText('Your session has expired. Please login again.')).toBeVisible();
      return;
    case 'session.logout': {
      // After an expiry the app logs out by itself; otherwise the person presses Logout.
      if (at === 'expired') return;
      if (next?.type === 'xstate.error.actor.logout') await page.route(LOGOUT, (route) => route.abort('connectionfailed'));
      const revoked = page.waitForRequest((r) => LOGOUT(new URL(r.url())));
      await page.getByRole('link', { name: 'Logout' }).click();
      await revoked;
      // A refresh held till now ends (its answer comes too late to matter).
      held.release?.();
      return;
    }
    case 'xstate.done.actor.logout':
    case 'xstate.error.actor.logout':
      // Signed out either way, also when the server could not be told.
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
      expect(await storage(page)).toEqual({ token: null, refreshToken: null });
      await page.unroute(LOGOUT);
      return;
    case 'session.replaced': {
      // The profile saved as it is: the server's answer (the person, maybe new tokens) replaces the session.
      await page.getByRole('link', { name: /, profile$/ }).first().click();
      await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
      const update = page.getByRole('button', { name: 'Update Profile' });
      await expect(update).toBeEnabled();
      await update.click();
      await expect(page.getByText('Profile updated successfully')).toBeVisible();
      // With a department and a unit, Home: the chat.
      await expect(page).toHaveURL(/\/chat$/);
      expect((await storage(page)).token).toBeTruthy();
      return;
    }
    case 'session.themeChosen': {
      const failing = next?.type === 'xstate.error.actor.saveTheme';
      // Answered once Dark has been seen (a refusal at once would undo it before anyone could see it).
      let seen = () => {};
      const shown = new Promise<void>((resolve) => (seen = resolve));
      await page.route(PREFERENCES, async (route) => {
        await shown;
        if (failing) return route.fulfill(errorEnvelope(500, 'Internal Server Error'));
        const me = JSON.parse((await page.evaluate(() => localStorage.getItem('user')))!) as object;
        return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ status: 'success', data: { ...me, theme: 'dark' } }) });
      });
      await page.emulateMedia({ colorScheme: 'light' });
      await page.getByRole('button', { name: 'Account details' }).click();
      const saved = page.waitForResponse((r) => PREFERENCES(new URL(r.url())));
      await page.getByRole('radiogroup', { name: 'Theme' }).getByText('Dark', { exact: true }).click();
      await expect.poll(() => shownTheme(page)).toBe('dark');
      seen();
      await saved;
      return;
    }
    case 'xstate.done.actor.saveTheme':
      // Kept: still dark, nothing said.
      await expect(page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'Dark' })).toBeChecked();
      expect(await shownTheme(page)).toBe('dark');
      await expect(page.getByText(THEME_SAVE_FAILED)).toHaveCount(0);
      await page.keyboard.press('Escape');
      await page.unroute(PREFERENCES);
      return;
    case 'xstate.error.actor.saveTheme':
      // Undone, and said.
      await expect(page.getByText(THEME_SAVE_FAILED)).toBeVisible();
      await expect.poll(() => shownTheme(page)).not.toBe('dark');
      await expect(page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'System' })).toBeChecked();
      await page.keyboard.press('Escape');
      await page.unroute(PREFERENCES);
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
      const at = statesBefore(path);
      const held: Held = {};
      if ('user' in path.input) {
        await restore(page, path.events);
      } else {
        await page.goto('/login');
        await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
      }
      for (const [i, event] of path.events.entries()) {
        await test.step(event.type, () => perform(page, held, event, at[i]!, path.events[i + 1]));
      }
      held.release?.();
    });
  }
});
