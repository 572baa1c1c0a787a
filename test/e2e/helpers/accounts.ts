import { expect, type Page } from '@playwright/test';

/** Demo accounts locally; QA overrides them to run the same paths against staging. */
export const password = process.env.E2E_PASSWORD ?? 'demo-e2e-password';
export const accounts = {
  superuser: process.env.E2E_SUPERUSER_EMAIL ?? 'super@demo.local',
  admin: process.env.E2E_ADMIN_EMAIL ?? 'admin@demo.local',
  user: process.env.E2E_USER_EMAIL ?? 'user@demo.local',
  newhire: process.env.E2E_NEWHIRE_EMAIL ?? 'newhire@demo.local',
};
/** Local runs own their server and its data directory; staging runs cannot read its outbox. */
export const isLocalServer = !process.env.E2E_BASE_URL;
/** Matches playwright.config.ts: one data directory per E2E_PORT. */
export const localDataDir = `test-results/e2e-data-${process.env.E2E_PORT ?? 8181}`;

/** Signs in through the login form, as a person does (sign-in.spec.ts and the specs about the form itself). */
export async function signIn(page: Page, email: string, pass = password) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(pass);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The form's sign-in and where it lands (the role's home): kept for the tests of signing in itself. */
export async function signInThroughFormAndLand(page: Page, email: string, path: RegExp) {
  await signIn(page, email);
  await expect(page).toHaveURL(path);
}

/** What the app keeps of a session in localStorage (src/session/session-storage.ts: the spec's keys). */
interface LoginAnswer {
  data: { access_token: string; refresh_token: string; user: unknown };
}

/** The access token signInByApi got for a page, for API set-up before the page has loaded the app. */
const tokensBeforeLoad = new WeakMap<Page, string>();
export const tokenBeforeLoad = (page: Page) => tokensBeforeLoad.get(page);

/**
 * Signs in through the public login API (so it works against staging too) and hands the session to the app the
 * way a reload finds it: the tokens and person in localStorage before the app's first script runs on the next
 * page load of this page. Only that first load: the session is the app's from then on (a later sign-out or
 * refresh is not undone by it). Saves every test the login screen's load and the form; sign-in.spec.ts keeps
 * the form. A test about another screen than the landing one goes straight there (page.goto) after this: where
 * a sign-in lands is sign-in.spec's, routes-and-session's and session paths' to check, and one page load fewer
 * per test adds up over the suite.
 */
export async function signInByApi(page: Page, email: string, pass = password) {
  const response = await page.request.post('/api/v1/auth/login', { data: { email, password: pass } });
  expect(response.ok(), `sign-in of ${email}: ${response.status()}`).toBe(true);
  const { access_token, refresh_token, user } = ((await response.json()) as LoginAnswer).data;
  tokensBeforeLoad.set(page, access_token);
  const origin = new URL(response.url()).origin;
  const once = `e2e-session-${Math.random().toString(36).slice(2)}`;
  await page.addInitScript(
    ({ origin, once, items }) => {
      if (location.origin !== origin || sessionStorage.getItem(once)) return;
      sessionStorage.setItem(once, '1');
      for (const [key, value] of items) localStorage.setItem(key, value);
    },
    { origin, once, items: [['token', access_token], ['refreshToken', refresh_token], ['user', JSON.stringify(user)]] },
  );
}

/** Signed in (through the API) and on the role's landing screen, where the form's sign-in would have left them. */
export async function signInAndLand(page: Page, email: string, path: RegExp) {
  await signInByApi(page, email);
  await page.goto('/home');
  await expect(page).toHaveURL(path);
}
