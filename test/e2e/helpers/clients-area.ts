import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { accounts, password } from './accounts';

/** The Client Details and Create New Subscription dialogs, and the toasts (client-details.spec.ts, subscription-form paths). */
export const detailsDialog = (page: Page, client: string) => page.getByRole('dialog', { name: `Client Details - ${client}` });
export const createDialog = (page: Page) => page.getByRole('dialog', { name: 'Create New Subscription' });
export const toast = (page: Page, text: string) => page.getByRole('alertdialog', { name: text });
export const SUBSCRIPTIONS = (url: URL) => url.pathname.endsWith('/api/v1/subscriptions/');
export const PACKAGES = (url: URL) => url.pathname.endsWith('/api/v1/packages/');

/** The superuser's API token, for set-up through the API. */
export async function superuserHeaders(request: APIRequestContext) {
  const login = await request.post('/api/v1/auth/login', { data: { email: accounts.superuser, password } });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  return { authorization: `Bearer ${token}` };
}

export async function packageIdOf(request: APIRequestContext, type: string): Promise<string> {
  const headers = await superuserHeaders(request);
  const packages = ((await (await request.get('/api/v1/packages/', { headers })).json()) as { data: Array<{ id: string; type: string }> }).data;
  return packages.find((p) => p.type === type)!.id;
}

/**
 * A client of the test's own, registered through the API as the superuser with one standard subscription from
 * `start` (to the minute) for 365 days. Returns its id and that period.
 */
export async function registerClient(request: APIRequestContext, name: string, start = Math.floor(Date.now() / 60_000) * 60_000) {
  const headers = await superuserHeaders(request);
  const expire = start + 365 * 24 * 3600 * 1000;
  const answer = await request.post('/api/v1/clients/register', {
    headers,
    data: {
      client_data: { client_name: name, contact_info: { email: `subs-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com` }, origin: 'https://subs.example.com' },
      subscription_data: {
        package_id: await packageIdOf(request, 'standard'),
        max_users: 1,
        fair_use: 1,
        start_date: new Date(start).toISOString(),
        expire_date: new Date(expire).toISOString(),
      },
    },
  });
  expect(answer.ok(), `client registration: ${answer.status()}`).toBe(true);
  return { id: ((await answer.json()) as { data: { id: string } }).data.id, start, expire };
}

/** The Clients page (/clients): the client found by name and its row's `action` ('View Details', 'View Usage'). */
export async function openFromClientsPage(page: Page, client: string, action: 'View Details' | 'View Usage') {
  await page.goto('/clients');
  await expect(page.getByRole('heading', { name: 'Client Management', level: 1 })).toBeVisible();
  const search = page.getByPlaceholder('Search clients by name or email...');
  await search.fill(client);
  const clientRow = page.getByRole('row').filter({ hasText: client });
  await expect(clientRow).toHaveCount(1);
  await clientRow.getByRole('button', { name: action }).click();
}
