import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoErrors } from '../../contract/sso-constants';
import { SUBSCRIPTION_INACTIVE } from '../../server/services/identity/access';
import { sealState, SSO_COOKIE, SSO_STATE_TTL_MS, openState } from '../../server/services/identity/sso-state';
import { startOidcPeer, TENANT_A, type OidcPeer } from '../e2e/helpers/oidc-peer';
import { API, addUser, bearer, createOrganisation, login } from './helpers/fixtures';
import { createTestApp, dbKind, PUBLIC_URL, type TestApp } from './helpers/test-app';

const ORIGIN = 'https://acme-sso.tanya.test';
const EXPIRED_ORIGIN = 'https://lapsed-sso.tanya.test';
const CALLBACK = '/api/v1/auth/social/callback';

/** A browser between our server (app.inject) and the test provider (real HTTP), keeping each side's cookies. */
class Browser {
  private peerCookies = new Map<string, string>();
  ourCookie: string | undefined;

  constructor(
    private readonly t: TestApp,
    private readonly peer: OidcPeer,
  ) {}

  private keep(setCookie: string[] | string | undefined, jar: Map<string, string>) {
    for (const line of ([] as string[]).concat(setCookie ?? [])) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!.trim(), value.join('='));
    }
  }

  /** Our server's answer; its state cookie kept (or cleared) as a browser would. */
  async ours(url: string): Promise<LightMyRequestResponse> {
    const res = await this.t.app.inject({ method: 'GET', url, headers: this.ourCookie ? { cookie: `${SSO_COOKIE}=${this.ourCookie}` } : {} });
    const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${SSO_COOKIE}=`));
    if (set) {
      const value = set.slice(SSO_COOKIE.length + 1).split(';')[0]!;
      this.ourCookie = value === '' ? undefined : decodeURIComponent(value);
    }
    return res;
  }

  /** Follows the provider's redirects (signing in as `email`, or declining) until it sends the browser back to us. */
  async atProvider(start: string, email: string | 'decline'): Promise<string> {
    let url = start;
    for (let hop = 0; hop < 20; hop++) {
      if (!url.startsWith(this.peer.issuer)) return url;
      const cookie = [...this.peerCookies].map(([k, v]) => `${k}=${v}`).join('; ');
      let res = await fetch(url, { redirect: 'manual', headers: { cookie } });
      this.keep(res.headers.getSetCookie(), this.peerCookies);
      if (res.status === 200 && new URL(url).pathname.startsWith('/interaction/')) {
        const form = email === 'decline' ? 'decline=1&email=' : `email=${encodeURIComponent(email)}`;
        const again = [...this.peerCookies].map(([k, v]) => `${k}=${v}`).join('; ');
        res = await fetch(url, { method: 'POST', redirect: 'manual', body: form, headers: { cookie: again, 'content-type': 'application/x-www-form-urlencoded' } });
        this.keep(res.headers.getSetCookie(), this.peerCookies);
      }
      const location = res.headers.get('location');
      if (!location) throw new Error(`the provider stopped at ${url}: ${res.status} ${await res.text()}`);
      url = new URL(location, url).href;
    }
    throw new Error('too many redirects at the provider');
  }

  /** The whole sign-in from our start URL to where our server finally sends the browser. */
  async signIn(provider: 'microsoft' | 'google', origin: string, email: string | 'decline'): Promise<string> {
    const started = await this.ours(`${API}/auth/social/${provider}/?origin=${encodeURIComponent(origin)}`);
    expect(started.statusCode).toBe(302);
    const location = started.headers.location as string;
    if (!location.startsWith(this.peer.issuer)) return location;
    const back = await this.atProvider(location, email);
    return this.callback(back);
  }

  async callback(back: string): Promise<string> {
    const url = new URL(back);
    const res = await this.ours(`${url.pathname}${url.search}`);
    expect(res.statusCode).toBe(302);
    return res.headers.location as string;
  }
}

const loginError = (origin: string, code: string, text: string) =>
  `${origin}/login?${new URLSearchParams({ error: code, error_description: text }).toString()}`;

describe(`single sign-on with a real OpenID provider (${dbKind})`, () => {
  let t: TestApp;
  let peer: OidcPeer;
  let clientId: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    peer = await startOidcPeer();
    t = await createTestApp({
      env: { MICROSOFT_ISSUER: peer.issuer, GOOGLE_ISSUER: peer.issuer },
      logger: { level: 'info', stream: { write: (line: string) => logLines.push(line) } },
    });
    const registered = await peer.registerClient([`${ORIGIN}${CALLBACK}`, `${EXPIRED_ORIGIN}${CALLBACK}`]);
    const superuser = bearer((await login(t.app, 'super@demo.local')).access_token);
    const configure = async (id: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/clients/${id}/oauth-configs`,
        headers: superuser,
        payload: { provider: 'microsoft', tenant_id: TENANT_A, provider_client_id: registered.clientId, provider_client_secret: registered.clientSecret },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    clientId = (await createOrganisation(t.db, { name: 'Acme SSO' })).client.id;
    await t.db.updateTable('clients').set({ origin: `${ORIGIN}/app` }).where('id', '=', clientId).execute();
    await configure(clientId);
    const lapsed = (await createOrganisation(t.db, { name: 'Lapsed SSO', subscription: 'expired' })).client.id;
    await t.db.updateTable('clients').set({ origin: EXPIRED_ORIGIN }).where('id', '=', lapsed).execute();
    await configure(lapsed);
    const other = (await createOrganisation(t.db, { name: 'Elsewhere' })).client.id;

    await addUser(t.db, { client_id: clientId, name: 'Amir', email: 'amir@acme.test' });
    await addUser(t.db, { client_id: clientId, name: 'Ina', email: 'ina@acme.test', status: 'inactive' });
    await addUser(t.db, { client_id: clientId, name: 'Odd', email: 'odd@other.test' });
    await addUser(t.db, { client_id: other, name: 'Zed', email: 'zed@acme.test' });
    await addUser(t.db, { client_id: lapsed, name: 'Lee', email: 'lee@lapsed.test' });
  });
  afterAll(async () => {
    await t?.close();
    await peer?.close();
  });

  it('signs an active person of the organisation in and hands the session to the SPA in the fragment', async () => {
    const browser = new Browser(t, peer);
    const location = await browser.signIn('microsoft', `${ORIGIN}/chat?x=1`, 'amir@acme.test');
    expect(location.startsWith(`${ORIGIN}/auth/sso#`)).toBe(true);
    const fragment = new URLSearchParams(location.split('#')[1]);
    const me = await t.app.inject({ method: 'GET', url: `${API}/users/me`, headers: bearer(fragment.get('access_token')!) });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.email).toBe('amir@acme.test');
    const refreshed = await t.app.inject({ method: 'POST', url: `${API}/auth/refresh`, headers: bearer(fragment.get('refresh_token')!) });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    // The state is spent with the callback.
    expect(browser.ourCookie).toBeUndefined();
    expect(logLines.join('\n')).not.toContain(fragment.get('access_token')!);
  });

  it.each([
    ['a person of another tenant', 'odd@other.test', 'wrong_tenant', ssoErrors.wrong_tenant('Microsoft')],
    ['an e-mail nobody has here', 'nobody@acme.test', 'unknown_user', ssoErrors.unknown_user('Microsoft')],
    ["another organisation's person", 'zed@acme.test', 'unknown_user', ssoErrors.unknown_user('Microsoft')],
    ['an inactive person', 'ina@acme.test', 'inactive_user', ssoErrors.inactive_user()],
  ])('sends %s back to the login screen with its sentence', async (_who, email, code, text) => {
    expect(await new Browser(t, peer).signIn('microsoft', ORIGIN, email)).toBe(loginError(ORIGIN, code, text));
  });

  it("refuses an organisation without a subscription in force with the spec's subscription_expired", async () => {
    expect(await new Browser(t, peer).signIn('microsoft', EXPIRED_ORIGIN, 'lee@lapsed.test')).toBe(
      loginError(EXPIRED_ORIGIN, 'subscription_expired', SUBSCRIPTION_INACTIVE),
    );
  });

  it("passes the provider's own refusal on", async () => {
    expect(await new Browser(t, peer).signIn('microsoft', ORIGIN, 'decline')).toBe(
      loginError(ORIGIN, 'provider_error', ssoErrors.provider_error('Microsoft', 'The person declined to sign in')),
    );
  });

  it('refuses an unknown address and a provider the organisation has not configured, never redirecting elsewhere', async () => {
    for (const origin of ['https://evil.example', '//evil.example', 'javascript:alert(1)', 'https://acme-sso.tanya.test.evil.example', '']) {
      expect(await new Browser(t, peer).signIn('microsoft', origin, 'amir@acme.test'), origin).toBe(
        loginError(PUBLIC_URL, 'unknown_origin', ssoErrors.unknown_origin()),
      );
    }
    const noQuery = await t.app.inject({ method: 'GET', url: `${API}/auth/social/microsoft/` });
    expect(noQuery.headers.location).toBe(loginError(PUBLIC_URL, 'unknown_origin', ssoErrors.unknown_origin()));
    expect(await new Browser(t, peer).signIn('google', ORIGIN, 'amir@acme.test')).toBe(
      loginError(ORIGIN, 'sso_not_configured', ssoErrors.sso_not_configured('Google')),
    );
  });

  it('signs in with Google too, only with an e-mail Google says is verified', async () => {
    const origin = 'https://gmail-sso.tanya.test';
    const registered = await peer.registerClient([`${origin}${CALLBACK}`]);
    const id = (await createOrganisation(t.db, { name: 'Google SSO' })).client.id;
    await t.db.updateTable('clients').set({ origin }).where('id', '=', id).execute();
    const superuser = bearer((await login(t.app, 'super@demo.local')).access_token);
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/clients/${id}/oauth-configs`,
      headers: superuser,
      payload: { provider: 'google', provider_client_id: registered.clientId, provider_client_secret: registered.clientSecret },
    });
    expect(res.statusCode, res.body).toBe(200);
    await addUser(t.db, { client_id: id, name: 'Gita', email: 'gita@gmail-sso.test' });
    await addUser(t.db, { client_id: id, name: 'Una', email: 'unverified@gmail-sso.test' });

    expect((await new Browser(t, peer).signIn('google', origin, 'gita@gmail-sso.test')).startsWith(`${origin}/auth/sso#access_token=`)).toBe(true);
    expect(await new Browser(t, peer).signIn('google', origin, 'unverified@gmail-sso.test')).toBe(loginError(origin, 'no_email', ssoErrors.no_email('Google')));
  });

  it('refuses a tampered state, a missing or foreign state cookie, a replayed code and a wrong PKCE verifier', async () => {
    const invalid = loginError(ORIGIN, 'invalid_state', ssoErrors.invalid_state());
    const invalidHere = loginError(PUBLIC_URL, 'invalid_state', ssoErrors.invalid_state());
    const key = t.config.oauthSecretKey!;

    // The state in the answer changed.
    const a = new Browser(t, peer);
    const startA = await a.ours(`${API}/auth/social/microsoft/?origin=${encodeURIComponent(ORIGIN)}`);
    const backA = new URL(await a.atProvider(startA.headers.location as string, 'amir@acme.test'));
    backA.searchParams.set('state', 'forged-state');
    expect(await a.callback(backA.href)).toBe(invalid);

    // No cookie at all (another browser), and the code replayed after a successful sign-in.
    const b = new Browser(t, peer);
    const startB = await b.ours(`${API}/auth/social/microsoft/?origin=${encodeURIComponent(ORIGIN)}`);
    const backB = await b.atProvider(startB.headers.location as string, 'amir@acme.test');
    const sealed = b.ourCookie!;
    b.ourCookie = undefined;
    expect(await b.callback(backB)).toBe(invalidHere);
    b.ourCookie = sealed;
    expect((await b.callback(backB)).startsWith(`${ORIGIN}/auth/sso#`)).toBe(true);
    b.ourCookie = sealed;
    expect(await b.callback(backB)).toBe(invalid);

    // Same state, another PKCE verifier: the provider refuses the code.
    const c = new Browser(t, peer);
    const startC = await c.ours(`${API}/auth/social/microsoft/?origin=${encodeURIComponent(ORIGIN)}`);
    const backC = await c.atProvider(startC.headers.location as string, 'amir@acme.test');
    const state = openState(key, c.ourCookie)!;
    c.ourCookie = sealState(key, { ...state, codeVerifier: 'x'.repeat(43) });
    expect(await c.callback(backC)).toBe(invalid);

    // A cookie past its 10 minutes.
    const d = new Browser(t, peer);
    const startD = await d.ours(`${API}/auth/social/microsoft/?origin=${encodeURIComponent(ORIGIN)}`);
    const backD = await d.atProvider(startD.headers.location as string, 'amir@acme.test');
    const late = openState(key, d.ourCookie)!;
    d.ourCookie = sealState(key, { ...late, expiresAt: Date.now() - 1 });
    expect(openState(key, sealState(key, { ...late, expiresAt: Date.now() + SSO_STATE_TTL_MS }))).toBeDefined();
    expect(await d.callback(backD)).toBe(invalidHere);
  });
});
