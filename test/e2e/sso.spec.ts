import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ssoErrors, SSO_INVALID_CALLBACK, SSO_SUCCESS } from '../../contract/sso-constants';
import { activateByApi, activationPath, codeOf, setPersonStatus } from './helpers/activation';
import { isLocalServer } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import { packageIdOf, superuserHeaders } from './helpers/clients-area';
import { expectNoHorizontalOverflow, PHONE } from './helpers/phone-layout';

// 'Sign in with Microsoft' in Chromium, against the local OpenID provider (test/e2e/helpers/oidc-peer.ts, started by
// playwright.config.ts) standing in for Microsoft. Each test's client organisation has an address of its own
// (http://<name>.sso.test:<port>, mapped to the local server by Chromium's host rules), a client registered at the
// provider for it, and its OAuth configuration. Only against the local server: staging has no such provider.

test.skip(!isLocalServer, 'needs the local OpenID provider');

const port = Number(process.env.E2E_PORT ?? 8181);
const issuer = `http://127.0.0.1:${port + 4}`;
const CALLBACK = '/api/v1/auth/social/callback';


interface Organisation {
  origin: string;
  domain: string;
  clientId: string;
}

/** A client organisation at its own address with Microsoft sign-in configured at the provider and here. */
async function organisation(request: APIRequestContext): Promise<Organisation> {
  const name = `sso${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const origin = `http://${name}.sso.test:${port}`;
  const reg = await request.post(`${issuer}/reg`, {
    data: { redirect_uris: [`${origin}${CALLBACK}`], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' },
  });
  expect(reg.ok(), await reg.text()).toBe(true);
  const provider = (await reg.json()) as { client_id: string; client_secret: string };

  const headers = await superuserHeaders(request);
  const day = 86_400_000;
  const start = Date.now() - 60_000;
  const registered = await request.post('/api/v1/clients/register', {
    headers,
    data: {
      client_data: { client_name: `SSO ${name}`, contact_info: { email: `it@${name}.example.com` }, origin },
      subscription_data: {
        package_id: await packageIdOf(request, 'standard'),
        max_users: 5,
        fair_use: 5,
        start_date: new Date(start).toISOString(),
        expire_date: new Date(start + 365 * day).toISOString(),
      },
    },
  });
  expect(registered.ok(), await registered.text()).toBe(true);
  const clientId = ((await registered.json()) as { data: { id: string } }).data.id;
  const config = await request.post(`/api/v1/clients/${clientId}/oauth-configs`, {
    headers,
    data: { provider: 'microsoft', tenant_id: 'tenant-a', provider_client_id: provider.client_id, provider_client_secret: provider.client_secret },
  });
  expect(config.ok(), await config.text()).toBe(true);
  return { origin, domain: `${name}.example.com`, clientId };
}

/** An activated admin of the organisation (registered by the superuser, activated through the mailed link). */
async function person(request: APIRequestContext, org: Organisation, local: string): Promise<{ id: string; email: string }> {
  const email = `${local}@${org.domain}`;
  const headers = await superuserHeaders(request);
  const res = await request.post('/api/v1/auth/register', { headers, data: { name: `Person ${local}`, email, role: 'admin', client_id: org.clientId } });
  expect(res.ok(), await res.text()).toBe(true);
  await activateByApi(request, codeOf(await activationPath(email)), 'a-password-never-used-1');
  return { id: ((await res.json()) as { data: { id: string } }).data.id, email };
}

/** From the organisation's login page through 'Sign in with Microsoft' and the provider's own sign-in form. */
async function signInWithMicrosoft(page: Page, org: Organisation, email: string | 'decline') {
  // Each attempt signs in at the provider afresh (its session would otherwise answer for the last account).
  await page.context().clearCookies();
  await page.goto(`${org.origin}/login`);
  const link = page.getByRole('link', { name: 'Sign in with Microsoft' });
  await expect(link).toBeEnabled();
  await link.click();
  await expect(page.getByRole('heading', { name: 'Sign in to Test Provider' })).toBeVisible();
  if (email === 'decline') {
    await page.getByRole('button', { name: 'Decline' }).click();
  } else {
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
  }
}

const banner = (page: Page, text: string) => page.getByText(text, { exact: true });

test('a person of the organisation goes from Sign in with Microsoft to the chat', async ({ page, request }) => {
  const org = await organisation(request);
  const admin = await person(request, org, 'amir');
  await signInWithMicrosoft(page, org, admin.email);
  await expect(page.getByRole('heading', { name: SSO_SUCCESS })).toBeVisible();
  // The tokens are gone from the address bar at once.
  expect(new URL(page.url()).hash).toBe('');
  await expect(page).toHaveURL(`${org.origin}/home`, { timeout: 10_000 });
  await page.getByRole('link', { name: 'Chat' }).first().click();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByRole('textbox', { name: /message/i }).first()).toBeVisible();
});

test('wrong tenant, unknown e-mail, inactive person, inactive organisation and a declined sign-in each end on the login screen with their sentence', async ({ page, request }) => {
  // Two organisations and five trips to the provider: on 2 busy cores longer than one page's test.
  test.slow();
  const org = await organisation(request);
  const inactive = await person(request, org, 'ina');
  await setPersonStatus(request, (await superuserHeaders(request)).authorization.slice('Bearer '.length), inactive.id, 'inactive');

  await signInWithMicrosoft(page, org, `someone@other-${org.domain}`);
  await expect(page).toHaveURL(`${org.origin}/login`);
  await expect(banner(page, ssoErrors.wrong_tenant('Microsoft'))).toBeVisible();

  await signInWithMicrosoft(page, org, `nobody@${org.domain}`);
  await expect(banner(page, ssoErrors.unknown_user('Microsoft'))).toBeVisible();

  await signInWithMicrosoft(page, org, inactive.email);
  await expect(banner(page, ssoErrors.inactive_user())).toBeVisible();

  await signInWithMicrosoft(page, org, 'decline');
  await expect(banner(page, ssoErrors.provider_error('Microsoft', 'The person declined to sign in'))).toBeVisible();

  // An organisation switched inactive has no subscription in force for its people.
  const lapsed = await organisation(request);
  const lee = await person(request, lapsed, 'lee');
  const off = await request.patch(`/api/v1/clients/${lapsed.clientId}/status?status=inactive`, { headers: await superuserHeaders(request) });
  expect(off.ok(), await off.text()).toBe(true);
  await signInWithMicrosoft(page, lapsed, lee.email);
  await expect(banner(page, 'Your subscription is not active. Please contact your administrator to renew your subscription.')).toBeVisible();
});

test('a tampered state and a callback without tokens end on the login screen', async ({ page, request }) => {
  const org = await organisation(request);
  const admin = await person(request, org, 'tam');
  // Our redirect to the provider is caught and its state changed: the provider hands the forged one back.
  await page.route(`${org.origin}/api/v1/auth/social/microsoft/*`, async (route) => {
    // Fetched from here (Node), where *.sso.test does not resolve: the local server, with the organisation's Host.
    const asked = new URL(route.request().url());
    const answer = await route.fetch({
      url: `http://127.0.0.1:${port}${asked.pathname}${asked.search}`,
      headers: { ...route.request().headers(), host: asked.host },
      maxRedirects: 0,
    });
    const location = new URL(answer.headers()['location']!);
    location.searchParams.set('state', 'forged');
    await route.fulfill({ response: answer, headers: { ...answer.headers(), location: location.href } });
  });
  await signInWithMicrosoft(page, org, admin.email);
  await expect(page).toHaveURL(`${org.origin}/login`);
  await expect(banner(page, ssoErrors.invalid_state())).toBeVisible();
  await page.unroute(`${org.origin}/api/v1/auth/social/microsoft/*`);

  await page.goto(`${org.origin}/auth/sso`);
  await expect(page).toHaveURL(`${org.origin}/login`);
  await expect(banner(page, SSO_INVALID_CALLBACK)).toBeVisible();
});

test('the SSO screens are accessible in light and dark and fit a phone', async ({ page }) => {
  await page.goto('/login?error=wrong_tenant&error_description=' + encodeURIComponent(ssoErrors.wrong_tenant('Microsoft')));
  await expect(banner(page, ssoErrors.wrong_tenant('Microsoft'))).toBeVisible();
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
});
