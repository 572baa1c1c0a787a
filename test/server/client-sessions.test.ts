import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, paths, pathTo } from '../../contract/api-paths';
import { errorEnvelope } from '../../contract/envelope';
import { SEAT_LIMIT_REACHED } from '../../contract/registration-constants';
import { findPackageByType } from '../../server/db/repositories/packages';
import { SUBSCRIPTION_INACTIVE } from '../../server/services/identity/access';
import { addUser, bearer, login, post } from './helpers/fixtures';
import { createTestApp, dbKind, DEMO_PASSWORD, type TestApp } from './helpers/test-app';

const DAY_MS = 86_400_000;
const iso = (fromNowDays: number) => new Date(Date.now() + fromNowDays * DAY_MS).toISOString();

/** Sign-in and sessions follow the client's status and subscriptions, as the superuser sets them through the API. */
describe(`client status, subscriptions and sessions (${dbKind})`, () => {
  let t: TestApp;
  let superuser: Record<string, string>;
  let standardId: string;

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, headers: Record<string, string>, payload?: object): Promise<LightMyRequestResponse> =>
    t.app.inject({ method, url: `${API_PREFIX}${url}`, headers, ...(payload ? { payload } : {}) });
  const me = (token: string) => call('GET', paths.me, bearer(token));
  const refresh = (token: string) => post(t.app, paths.refresh, undefined, bearer(token));
  const signIn = (email: string) => post(t.app, paths.login, { email, password: DEMO_PASSWORD });

  async function registerClient(name: string, subscription: { start_date: string; expire_date: string; max_users?: number }) {
    const res = await call('POST', paths.clientRegister, superuser, {
      client_data: { client_name: name, contact_info: { email: `${name.replace(/\W+/g, '').toLowerCase()}@sessions.test` }, origin: 'https://sessions.test' },
      subscription_data: { package_id: standardId, max_users: 10, fair_use: 1, ...subscription },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.id as string;
  }
  const setStatus = (id: string, status: string) => call('PATCH', `${pathTo(paths.clientStatus, { id })}?status=${status}`, superuser);

  beforeAll(async () => {
    t = await createTestApp();
    superuser = bearer((await login(t.app, 'super@demo.local')).access_token);
    standardId = (await findPackageByType(t.db, 'standard'))!.id;
  });
  afterAll(() => t.close());

  it('refuses sign-in to an organisation whose only subscription has not started or has ended, with subscription_expired', async () => {
    const upcoming = await registerClient('Not Yet Org', { start_date: iso(2), expire_date: iso(30) });
    await addUser(t.db, { client_id: upcoming, name: 'Nia', email: 'nia@notyet.test', role: 'admin' });
    const refused = await signIn('nia@notyet.test');
    expect(refused.statusCode).toBe(403);
    expect(errorEnvelope.parse(refused.json())).toMatchObject({
      detail: 'Your subscription is not active. Please contact your administrator to renew your subscription.',
      code: 'subscription_expired',
    });
    expect(SUBSCRIPTION_INACTIVE).toBe(errorEnvelope.parse(refused.json()).detail);

    // A subscription in force from now on lets them in.
    const added = await call('POST', paths.subscriptions, superuser, {
      client_id: upcoming, package_id: standardId, max_users: 5, fair_use: 1, start_date: iso(-1), expire_date: iso(1),
    });
    expect(added.statusCode, added.body).toBe(200);
    expect((await signIn('nia@notyet.test')).statusCode).toBe(200);
  });

  it('ends the sessions of an organisation whose subscription ran out at the next refresh', async () => {
    const clientId = await registerClient('Running Out Org', { start_date: iso(-10), expire_date: iso(10) });
    await addUser(t.db, { client_id: clientId, name: 'Rua', email: 'rua@runningout.test' });
    const session = await login(t.app, 'rua@runningout.test');
    // The subscription ends (time passes): written directly, the API cannot shorten a subscription.
    await t.db.updateTable('subscriptions').set({ expire_date: iso(-1) }).where('client_id', '=', clientId).execute();
    const res = await refresh(session.refresh_token);
    expect(res.statusCode).toBe(401);
    expect(errorEnvelope.parse(res.json())).toMatchObject({ detail: SUBSCRIPTION_INACTIVE, code: 'subscription_expired' });
    expect((await signIn('rua@runningout.test')).json().code).toBe('subscription_expired');
  });

  it('deactivating a client refuses its people\'s access and refresh tokens at once, for good; the superuser is unaffected', async () => {
    const clientId = await registerClient('Switched Off Org', { start_date: iso(-1), expire_date: iso(100) });
    await addUser(t.db, { client_id: clientId, name: 'Sol Admin', email: 'sol@switched.test', role: 'admin' });
    await addUser(t.db, { client_id: clientId, name: 'Sam User', email: 'sam@switched.test' });
    const admin = await login(t.app, 'sol@switched.test');
    const user = await login(t.app, 'sam@switched.test');
    const other = await login(t.app, 'user@demo.local');
    expect((await me(user.access_token)).statusCode).toBe(200);

    expect((await setStatus(clientId, 'inactive')).statusCode).toBe(200);
    for (const session of [admin, user]) {
      expect((await me(session.access_token)).statusCode).toBe(401);
      expect((await refresh(session.refresh_token)).statusCode).toBe(401);
    }
    expect((await signIn('sam@switched.test')).json()).toMatchObject({ code: 'subscription_expired' });
    // Nobody else's session, and the superuser's (who belongs to no client), is touched.
    expect((await me(other.access_token)).statusCode).toBe(200);
    expect((await call('GET', paths.clients, superuser)).statusCode).toBe(200);

    // Re-activated, the organisation signs in again, but the sessions that were ended stay ended.
    expect((await setStatus(clientId, 'active')).statusCode).toBe(200);
    expect((await me(user.access_token)).statusCode).toBe(401);
    expect((await refresh(user.refresh_token)).statusCode).toBe(401);
    const again = await login(t.app, 'sam@switched.test');
    expect((await me(again.access_token)).statusCode).toBe(200);

    // Switching it off through Edit Client ends them the same way.
    const edit = await t.app.inject({
      method: 'PUT',
      url: `${API_PREFIX}${pathTo(paths.client, { id: clientId })}`,
      headers: superuser,
      payload: { client_name: 'Switched Off Org', contact_info: { email: 'x@switched.test' }, status: 'inactive', auth_type: 'email', client_type: 'corporate' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await me(again.access_token)).statusCode).toBe(401);
    await setStatus(clientId, 'active');
    expect((await refresh(again.refresh_token)).statusCode).toBe(401);
  });

  it('counts seats against max_users of the subscription in force when registering and re-activating people', async () => {
    const clientId = await registerClient('Two Seats Org', { start_date: iso(-1), expire_date: iso(100), max_users: 2 });
    const admin = await addUser(t.db, { client_id: clientId, name: 'Tia Admin', email: 'tia@twoseats.test', role: 'admin' });
    const adminHeaders = bearer((await login(t.app, admin.email)).access_token);
    const register = (email: string) => call('POST', paths.register, adminHeaders, { name: 'Seat Taker', email, role: 'user' });
    const second = await register('second@twoseats.test');
    expect(second.statusCode, second.body).toBe(200);
    const third = await register('third@twoseats.test');
    expect(third.statusCode).toBe(409);
    expect(errorEnvelope.parse(third.json()).detail).toBe(SEAT_LIMIT_REACHED(2));

    // A freed seat can be taken again, but re-activating beyond the limit is refused.
    const secondId = second.json().data.id as string;
    const status = (id: string, value: string) => call('PATCH', `${pathTo(paths.userStatus, { id })}?status=${value}`, adminHeaders);
    expect((await status(secondId, 'inactive')).statusCode).toBe(200);
    expect((await register('third@twoseats.test')).statusCode).toBe(200);
    const back = await status(secondId, 'active');
    expect(back.statusCode).toBe(409);
    expect(errorEnvelope.parse(back.json()).detail).toBe(SEAT_LIMIT_REACHED(2));
  });
});
