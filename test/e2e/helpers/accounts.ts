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

export async function signIn(page: Page, email: string, pass = password) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(pass);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

export async function signInAndLand(page: Page, email: string, path: RegExp) {
  await signIn(page, email);
  await expect(page).toHaveURL(path);
}
