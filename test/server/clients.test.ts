import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, paths, pathTo } from '../../contract/api-paths';
import { client as clientSchema, clientList, type Client } from '../../contract/clients';
import {
  AUTH_TYPE_NEEDS_ACTIVE_SUBSCRIPTION,
  AUTH_TYPE_NOT_IN_PACKAGE,
  CLIENT_EMAIL_REQUIRED,
  CLIENT_NOT_FOUND,
  CLIENT_ORIGIN_REQUIRED,
  CLIENT_REGISTERED,
  CLIENT_STATUS_UPDATED,
  CLIENT_UPDATED,
} from '../../contract/clients-constants';
import { errorEnvelope, successEnvelope } from '../../contract/envelope';
import { FAIR_USE_INVALID, MAX_USERS_INVALID, PACKAGE_REQUIRED } from '../../contract/subscriptions-constants';
import { findPackageByType } from '../../server/db/repositories/packages';
import { addUser, bearer, createOrganisation, login } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

const DAY_MS = 86_400_000;
const FORBIDDEN = 'You do not have permission to do this';
const iso = (fromNowDays: number) => new Date(Date.now() + fromNowDays * DAY_MS).toISOString();

/** Every route of the client administration, with an input that passes validation (so only the guard can refuse). */
function superuserRoutes(clientId: string, packageId: string) {
  const subscription = { package_id: packageId, max_users: 1, fair_use: 1, start_date: iso(1000), expire_date: iso(1001) };
  const edit = { client_name: 'X', contact_info: { email: 'x@x.test' }, status: 'active', auth_type: 'email', client_type: 'corporate' };
  return [
    { method: 'GET', url: paths.clients },
    { method: 'GET', url: pathTo(paths.client, { id: clientId }) },
    { method: 'POST', url: paths.clientRegister, payload: { client_data: { ...edit, origin: 'https://x.test' }, subscription_data: subscription } },
    { method: 'PUT', url: pathTo(paths.client, { id: clientId }), payload: edit },
    { method: 'PATCH', url: `${pathTo(paths.clientStatus, { id: clientId })}?status=inactive` },
    { method: 'GET', url: paths.packages },
    { method: 'GET', url: `${paths.subscriptions}?client_id=${clientId}` },
    { method: 'GET', url: `${paths.subscriptions}?client_id=${clientId}&status=active` },
    { method: 'POST', url: paths.subscriptions, payload: { client_id: clientId, ...subscription } },
    { method: 'GET', url: pathTo(paths.clientDepartmentUsage, { id: clientId }) },
  ] as const;
}

describe(`client organisations (${dbKind})`, () => {
  let t: TestApp;
  let superuser: Record<string, string>;
  let standardId: string;
  let premiumId: string;

  const call = (method: string, url: string, headers: Record<string, string>, payload?: object): Promise<LightMyRequestResponse> =>
    t.app.inject({ method: method as 'GET', url: `${API_PREFIX}${url}`, headers, ...(payload ? { payload } : {}) });
  const detail = (res: LightMyRequestResponse) => errorEnvelope.parse(res.json()).detail;
  const fields = (res: LightMyRequestResponse) => errorEnvelope.parse(res.json()).fields ?? {};

  const registration = (name: string, over: { client?: object; subscription?: object } = {}) => ({
    client_data: { client_name: name, contact_info: { email: `${name.toLowerCase().replace(/\W+/g, '.')}@client.test` }, origin: 'https://client.test', ...over.client },
    subscription_data: { package_id: standardId, max_users: 5, fair_use: 2, start_date: iso(-1), expire_date: iso(364), ...over.subscription },
  });
  async function register(name: string, over: { client?: object; subscription?: object } = {}): Promise<Client> {
    const res = await call('POST', paths.clientRegister, superuser, registration(name, over));
    expect(res.statusCode, res.body).toBe(200);
    return successEnvelope(clientSchema).parse(res.json()).data;
  }

  beforeAll(async () => {
    t = await createTestApp();
    superuser = bearer((await login(t.app, 'super@demo.local')).access_token);
    standardId = (await findPackageByType(t.db, 'standard'))!.id;
    premiumId = (await findPackageByType(t.db, 'premium'))!.id;
  });
  afterAll(() => t.close());

  it('answers every route to the superuser only: 403 for admins and users, 401 without a token', async () => {
    const org = await createOrganisation(t.db, { name: 'Guarded Org' });
    await addUser(t.db, { client_id: org.client.id, name: 'Gale Admin', email: 'gale@guarded.test', role: 'admin' });
    const admin = bearer((await login(t.app, 'gale@guarded.test')).access_token);
    const user = bearer((await login(t.app, 'user@demo.local')).access_token);
    const before = await t.db.selectFrom('subscriptions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    for (const route of superuserRoutes(org.client.id, standardId)) {
      const where = `${route.method} ${route.url}`;
      for (const headers of [admin, user]) {
        const res = await call(route.method, route.url, headers, 'payload' in route ? route.payload : undefined);
        expect(res.statusCode, where).toBe(403);
        expect(detail(res), where).toBe(FORBIDDEN);
      }
      const anonymous = await call(route.method, route.url, {}, 'payload' in route ? route.payload : undefined);
      expect(anonymous.statusCode, where).toBe(401);
    }
    // Nothing was changed by the refused calls.
    const after = await t.db.selectFrom('subscriptions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect((await call('GET', pathTo(paths.client, { id: org.client.id }), superuser)).json().data).toMatchObject({ status: 'active', client_name: 'Guarded Org' });
    // Each of them answers the superuser (2xx or a 4xx about the input, never a 5xx).
    for (const route of superuserRoutes(org.client.id, standardId)) {
      const res = await call(route.method, route.url, superuser, 'payload' in route ? route.payload : undefined);
      expect(res.statusCode, `${route.method} ${route.url}: ${res.body}`).toBe(200);
    }
  });

  it('registers a client with its first subscription, with the form defaults, in one transaction', async () => {
    const res = await call('POST', paths.clientRegister, superuser, registration('Acme Sdn Bhd'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(CLIENT_REGISTERED);
    const created = successEnvelope(clientSchema).parse(res.json()).data;
    expect(created).toMatchObject({
      client_name: 'Acme Sdn Bhd',
      contact_info: { email: 'acme.sdn.bhd@client.test', phone: null },
      origin: 'https://client.test',
      status: 'active',
      auth_type: 'email',
      client_type: 'corporate',
      subscription: { package_name: 'standard', max_users: 5, fair_use: 2, status: 'active', package: { type: 'standard' } },
    });
    expect(created.subscription!.package.features).toEqual(['browsing', 'reasoning']);
    expect((await call('GET', pathTo(paths.client, { id: created.id }), superuser)).json().data).toEqual(created);

    // A subscription the server refuses leaves no client behind.
    const count = async () => Number((await t.db.selectFrom('clients').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const clients = await count();
    const refused = await call('POST', paths.clientRegister, superuser, registration('Half Registered', { subscription: { expire_date: iso(-2) } }));
    expect(refused.statusCode).toBe(400);
    expect(await count()).toBe(clients);
  });

  it('refuses a registration without its required fields, each with its own sentence', async () => {
    const cases: [object, string, string][] = [
      [{ subscription: { package_id: undefined } }, 'subscription_data.package_id', PACKAGE_REQUIRED],
      [{ subscription: { package_id: '' } }, 'subscription_data.package_id', PACKAGE_REQUIRED],
      [{ subscription: { max_users: 0 } }, 'subscription_data.max_users', MAX_USERS_INVALID],
      [{ subscription: { max_users: 1.5 } }, 'subscription_data.max_users', MAX_USERS_INVALID],
      [{ subscription: { fair_use: 0 } }, 'subscription_data.fair_use', FAIR_USE_INVALID],
      [{ subscription: { fair_use: '2' } }, 'subscription_data.fair_use', FAIR_USE_INVALID],
      [{ client: { contact_info: { email: '' } } }, 'client_data.contact_info.email', CLIENT_EMAIL_REQUIRED],
      [{ client: { origin: '' } }, 'client_data.origin', CLIENT_ORIGIN_REQUIRED],
    ];
    for (const [over, field, sentence] of cases) {
      const res = await call('POST', paths.clientRegister, superuser, registration('Incomplete', over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(fields(res)[field], JSON.stringify(over)).toBe(sentence);
    }
    const unknownPackage = await call('POST', paths.clientRegister, superuser, registration('Unknown Package', { subscription: { package_id: 'no-such-package' } }));
    expect(unknownPackage.statusCode).toBe(400);
    expect(Object.keys(fields(unknownPackage))).toEqual(['package_id']);
  });

  it('allows only email with standard, email or ldap with premium, when registering', async () => {
    const refused = await call('POST', paths.clientRegister, superuser, registration('Ldap Standard', { client: { auth_type: 'ldap' } }));
    expect(refused.statusCode).toBe(400);
    expect(detail(refused)).toBe(AUTH_TYPE_NOT_IN_PACKAGE('ldap', 'standard'));
    expect(fields(refused).auth_type).toBe(AUTH_TYPE_NOT_IN_PACKAGE('ldap', 'standard'));
    const premium = await register('Ldap Premium', { client: { auth_type: 'ldap' }, subscription: { package_id: premiumId } });
    expect(premium.auth_type).toBe('ldap');
    const sso = await call('POST', paths.clientRegister, superuser, registration('Sso', { client: { auth_type: 'sso' } }));
    expect(sso.statusCode).toBe(400);
    expect(Object.keys(fields(sso))).toEqual(['client_data.auth_type']);
  });

  it('edits a client; the auth type follows the package in force, and cannot change without one', async () => {
    const premium = await register('Editable Premium', { subscription: { package_id: premiumId } });
    const edit = (id: string, body: object) => call('PUT', pathTo(paths.client, { id }), superuser, body);
    const base = { client_name: 'Editable Premium', contact_info: { email: 'edit@client.test', phone: '+60 12-345 6789' }, status: 'active', auth_type: 'email', client_type: 'educational' };
    const res = await edit(premium.id, { ...base, auth_type: 'ldap', origin: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(CLIENT_UPDATED);
    expect(res.json().data).toMatchObject({ auth_type: 'ldap', client_type: 'educational', origin: null, contact_info: { phone: '+60 12-345 6789' } });

    // A standard subscription in force forces email: ldap is refused, even kept as it was.
    const standard = await register('Editable Standard');
    const forced = await edit(standard.id, { ...base, auth_type: 'ldap' });
    expect(forced.statusCode).toBe(400);
    expect(detail(forced)).toBe(AUTH_TYPE_NOT_IN_PACKAGE('ldap', 'standard'));

    // Without a subscription in force (only an upcoming one) the auth type stays as it is; the rest may change.
    const later = await register('Later Client', { subscription: { start_date: iso(10), expire_date: iso(20) } });
    expect(later.subscription).toBeNull();
    const change = await edit(later.id, { ...base, auth_type: 'ldap' });
    expect(change.statusCode).toBe(400);
    expect(detail(change)).toBe(AUTH_TYPE_NEEDS_ACTIVE_SUBSCRIPTION);
    const keep = await edit(later.id, { ...base, client_name: 'Later Client Renamed' });
    expect(keep.statusCode, keep.body).toBe(200);
    expect(keep.json().data.client_name).toBe('Later Client Renamed');

    // ldap chosen under premium, then a standard subscription in force: the client signs in with email, unedited.
    const moved = await register('Moved To Standard', {
      client: { auth_type: 'ldap' },
      subscription: { package_id: premiumId, start_date: iso(-30), expire_date: iso(-2) },
    });
    expect(moved.subscription).toBeNull();
    expect(moved.auth_type).toBe('ldap');
    const following = await call('POST', paths.subscriptions, superuser, {
      client_id: moved.id,
      package_id: standardId,
      max_users: 1,
      fair_use: 1,
      start_date: iso(-1),
      expire_date: iso(300),
    });
    expect(following.statusCode, following.body).toBe(200);
    const now = await call('GET', pathTo(paths.client, { id: moved.id }), superuser);
    expect(now.json().data).toMatchObject({ auth_type: 'email', subscription: { package: { type: 'standard' } } });
    const listed = await call('GET', `${paths.clients}?search=Moved%20To%20Standard`, superuser);
    expect(listed.json().data.clients[0].auth_type).toBe('email');

    const missing = await edit('no-such-client', base);
    expect(missing.statusCode).toBe(404);
    expect(detail(missing)).toBe(CLIENT_NOT_FOUND);
    const incomplete = await edit(premium.id, { client_name: 'Only a name' });
    expect(incomplete.statusCode).toBe(400);
    expect(Object.keys(fields(incomplete)).sort()).toEqual(['auth_type', 'client_type', 'contact_info', 'status']);
  });

  it('switches a client inactive and back; statuses other than active and inactive are refused', async () => {
    const org = await register('Switchable');
    const url = (status: string) => `${pathTo(paths.clientStatus, { id: org.id })}?status=${status}`;
    const off = await call('PATCH', url('inactive'), superuser);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ message: CLIENT_STATUS_UPDATED, data: { status: 'inactive' } });
    expect((await call('PATCH', url('active'), superuser)).json().data.status).toBe('active');
    expect((await call('PATCH', url('pending'), superuser)).statusCode).toBe(400);
    expect((await call('PATCH', `${pathTo(paths.clientStatus, { id: 'no-such-client' })}?status=active`, superuser)).statusCode).toBe(404);
  });

  it('lists clients by name, a page at a time, searching name and e-mail, filtered by status and type', async () => {
    for (const name of ['Zeta Search Co', 'alpha search co', 'Beta Search Co']) await register(name, { client: { client_type: 'educational' } });
    await register('Mail Only', { client: { contact_info: { email: 'unique-search-mark@elsewhere.test' }, client_type: 'individual' } });
    const list = async (query: string) => {
      const res = await call('GET', `${paths.clients}?${query}`, superuser);
      expect(res.statusCode, res.body).toBe(200);
      return successEnvelope(clientList).parse(res.json()).data;
    };
    const found = await list('search=SEARCH%20co');
    // By name, case-insensitively, the same on both databases.
    expect(found.clients.map((c) => c.client_name)).toEqual(['alpha search co', 'Beta Search Co', 'Zeta Search Co']);
    expect(found.clients.every((c) => c.subscription?.status === 'active')).toBe(true);
    expect((await list('search=unique-search-mark')).clients.map((c) => c.client_name)).toEqual(['Mail Only']);
    expect((await list('client_type=individual')).clients.map((c) => c.client_name)).toEqual(['Mail Only']);
    expect((await list('search=search%20co&client_type=corporate')).total).toBe(0);

    const pageOne = await list('page_size=2&search=search%20co');
    expect(pageOne).toMatchObject({ page: 1, page_size: 2, total: 3, total_pages: 2 });
    const pageTwo = await list('page_size=2&page=2&search=search%20co');
    expect(pageTwo.clients).toHaveLength(1);
    expect(new Set([...pageOne.clients, ...pageTwo.clients].map((c) => c.id)).size).toBe(3);

    const inactive = await register('Dormant Search Co');
    await call('PATCH', `${pathTo(paths.clientStatus, { id: inactive.id })}?status=inactive`, superuser);
    expect((await list('status=inactive&search=search')).clients.map((c) => c.id)).toEqual([inactive.id]);
    expect((await list('status=active&search=dormant')).total).toBe(0);
    expect((await call('GET', `${paths.clients}?status=deleted`, superuser)).statusCode).toBe(400);
    expect((await call('GET', `${paths.clients}?client_type=government`, superuser)).statusCode).toBe(400);
  });
});
