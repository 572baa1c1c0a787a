import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope, successEnvelope } from '../../contract/envelope';
import { user as userSchema, type User } from '../../contract/user';
import { userList, type UserList } from '../../contract/users';
import { insertDepartment, insertUnit } from '../../server/db/repositories/departments';
import { findRefreshTokenByHash } from '../../server/db/repositories/refresh-tokens';
import { findUserById, type UserRecord } from '../../server/db/repositories/users';
import { sha256Hex } from '../../server/services/identity/tokens';
import { API, addUser, bearer, createOrganisation, login, post } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

type Method = 'GET' | 'PATCH';
type Org = Awaited<ReturnType<typeof createOrganisation>>;

const FORBIDDEN = 'You do not have permission to do this';
const INACTIVE = 'Your account is inactive. Please contact your administrator.';
/** Every key of the contract's user, and nothing else (never a password hash). */
// The theme is the person's own preference: an admin's views of people leave it out (only /users/me carries it).
const USER_KEYS = Object.keys(userSchema.shape).filter((key) => key !== 'theme').sort();

describe(`user administration (${dbKind})`, () => {
  let t: TestApp;
  /** Organisation A: an admin, a second admin, and eleven people (thirteen in all, more than one page), four inactive. */
  let a: Org;
  let aAdmin: UserRecord;
  let aAdmin2: UserRecord;
  let aPeople: UserRecord[];
  let adminA: Record<string, string>;
  /** Organisation B: an admin and one person with a department and unit. */
  let b: Org;
  let bAdmin: UserRecord;
  let bPerson: UserRecord;
  let adminB: Record<string, string>;
  let superuser: Record<string, string>;
  let plainUser: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createOrganisation(t.db, { name: 'Alpha Org' });
    b = await createOrganisation(t.db, { name: 'Beta Org' });
    aAdmin = await addUser(t.db, { client_id: a.client.id, name: 'Ada Admin', email: 'ada@alpha.test', role: 'admin' });
    aAdmin2 = await addUser(t.db, { client_id: a.client.id, name: 'Abel Admin', email: 'abel@alpha.test', role: 'admin' });
    aPeople = [];
    const names = ['zoe Zimmer', 'Bob Brown', 'carla Cruz', 'Dan Dorn', 'Eve East', 'Finn Fox', 'Gina Gold', 'Hal Hope', 'Ivy Ink', 'Jon Jade', 'Kim 100% Key'];
    for (const [i, name] of names.entries()) {
      const email = `${name.split(' ')[0]!.toLowerCase()}@alpha.test`;
      aPeople.push(await addUser(t.db, { client_id: a.client.id, name, email, status: i % 3 === 0 ? 'inactive' : 'active' }));
    }
    bAdmin = await addUser(t.db, { client_id: b.client.id, name: 'Bea Admin', email: 'bea@beta.test', role: 'admin' });
    bPerson = await addUser(t.db, {
      client_id: b.client.id,
      name: 'Bob Beta',
      email: 'bob@beta.test',
      department_id: b.department.id,
      unit_id: b.unit.id,
    });
    adminA = bearer((await login(t.app, 'ada@alpha.test')).access_token);
    adminB = bearer((await login(t.app, 'bea@beta.test')).access_token);
    superuser = bearer((await login(t.app, 'super@demo.local')).access_token);
    plainUser = bearer((await login(t.app, 'user@demo.local')).access_token);
  });
  afterAll(() => t.close());

  const call = (method: Method, url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url: `${API}/users${url}`, headers, payload });
  const refused = (res: LightMyRequestResponse, status: number, detail: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(errorEnvelope.parse(res.json()).detail).toBe(detail);
  };
  const list = async (query: string, headers = adminA): Promise<UserList> => {
    const res = await call('GET', `/${query}`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return successEnvelope(userList).parse(res.json()).data;
  };
  const patch = (id: string, payload: object, headers = adminA) => call('PATCH', `/${encodeURIComponent(id)}`, headers, payload);
  const updated = async (id: string, payload: object, headers = adminA): Promise<User> => {
    const res = await patch(id, payload, headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('User updated successfully');
    return successEnvelope(userSchema).parse(res.json()).data;
  };
  const setStatus = (id: string, status: string, headers = adminA) => call('PATCH', `/${id}/status?status=${status}`, headers);
  const stored = async (id: string) => (await findUserById(t.db, id))!;

  describe('roles', () => {
    // The superuser may change any organisation's people (issue 30): superuser-users.test.ts.
    it('refuses a user every route (403), and nobody signed out (401)', async () => {
      const target = aPeople[1]!.id;
      refused(await call('GET', '/', plainUser), 403, FORBIDDEN);
      refused(await patch(target, { name: 'Taken over' }, plainUser), 403, FORBIDDEN);
      refused(await setStatus(target, 'inactive', plainUser), 403, FORBIDDEN);
      expect((await call('GET', '/', {})).statusCode).toBe(401);
      expect((await patch(target, { name: 'Taken over' }, {})).statusCode).toBe(401);
      expect((await setStatus(target, 'inactive', {})).statusCode).toBe(401);
      expect(await stored(target)).toMatchObject({ name: 'Bob Brown', status: 'active' });
    });

    it('keeps GET /users/me working for every role: it is not taken for /users/{id}', async () => {
      for (const [headers, email] of [[plainUser, 'user@demo.local'], [adminA, 'ada@alpha.test'], [superuser, 'super@demo.local']] as const) {
        const res = await call('GET', '/me', headers);
        expect(res.statusCode, res.body).toBe(200);
        expect(successEnvelope(userSchema).parse(res.json()).data.email).toBe(email);
      }
      // PATCH /users/me is no route of its own: "me" is just an id nobody has.
      refused(await patch('me', { name: 'Me' }), 404, 'User not found');
      refused(await setStatus('me', 'inactive'), 404, 'User not found');
    });
  });

  describe('GET /users/', () => {
    it("gives an admin their own organisation's people by name, ten a page, with the contract's fields only", async () => {
      const first = await list('');
      expect(first).toMatchObject({ page: 1, page_size: 10, total: 13, total_pages: 2 });
      expect(first.users).toHaveLength(10);
      const second = await list('?page=2');
      expect(second.users).toHaveLength(3);
      const names = [...first.users, ...second.users].map((u) => u.name);
      expect(names).toEqual([...names].sort((x, y) => x.toLowerCase().localeCompare(y.toLowerCase())));
      expect(names.slice(0, 3)).toEqual(['Abel Admin', 'Ada Admin', 'Bob Brown']);
      expect(names.at(-1)).toBe('zoe Zimmer');
      expect([...first.users, ...second.users].every((u) => u.client_id === a.client.id)).toBe(true);
      expect(await list('?page=3')).toMatchObject({ users: [], total: 13, total_pages: 2 });
      expect(await list('?page_size=5&page=3')).toMatchObject({ page: 3, page_size: 5, total: 13, total_pages: 3 });
      expect((await list('?page_size=5&page=3')).users.map((u) => u.name)).toEqual(['Jon Jade', 'Kim 100% Key', 'zoe Zimmer']);
      // The raw JSON carries exactly the user view: no password hash, no timestamps.
      const raw = (await call('GET', '/', adminA)).json() as { data: { users: Record<string, unknown>[] } };
      for (const u of raw.data.users) expect(Object.keys(u).sort()).toEqual(USER_KEYS);
      expect(JSON.stringify(raw)).not.toMatch(/password|argon2/i);
      // The package is the organisation's (standard), as in /users/me.
      expect(first.users[0]).toMatchObject({ package_name: 'standard', verified: true });
    });

    it('searches name or e-mail address, case-insensitively and trimmed, with wildcards taken literally', async () => {
      const names = async (query: string, headers = adminA) => (await list(query, headers)).users.map((u) => u.name);
      expect(await names('?search=CARLA')).toEqual(['carla Cruz']);
      expect(await names(`?search=${encodeURIComponent('  Dorn ')}`)).toEqual(['Dan Dorn']);
      expect(await names('?search=finn%40ALPHA')).toEqual(['Finn Fox']);
      expect(await names('?search=admin')).toEqual(['Abel Admin', 'Ada Admin']);
      expect(await names(`?search=${encodeURIComponent('100%')}`)).toEqual(['Kim 100% Key']);
      expect(await names('?search=%25')).toEqual(['Kim 100% Key']);
      expect(await names('?search=_')).toEqual([]);
      // Another organisation's people are never found.
      expect(await names('?search=beta')).toEqual([]);
      expect(await names('?search=bob')).toEqual(['Bob Brown']);
      expect(await names('?search=bob', adminB)).toEqual(['Bob Beta']);
      // An empty search filters nothing.
      expect((await list('?search=%20%20')).total).toBe(13);
      const searched = await list('?search=a&page_size=2');
      expect(searched.total_pages).toBe(Math.ceil(searched.total / 2));
    });

    it('filters by status, alone and with a search', async () => {
      const inactive = await list('?status=inactive');
      expect(inactive.users.map((u) => u.name)).toEqual(['Dan Dorn', 'Gina Gold', 'Jon Jade', 'zoe Zimmer']);
      expect(inactive.users.every((u) => u.status === 'inactive')).toBe(true);
      expect((await list('?status=active')).total).toBe(9);
      expect((await list('?status=active&search=zoe')).users).toEqual([]);
      refused(await call('GET', '/?status=pending', adminA), 400, 'status must be active or inactive');
      refused(await call('GET', '/?page_size=0', adminA), 400, 'page_size must be a whole number from 1 to 100');
      refused(await call('GET', '/?page=0', adminA), 400, 'page must be a whole number of 1 or more');
    });

    it("refuses an admin naming another organisation's client_id (403); their own is fine", async () => {
      expect((await list(`?client_id=${a.client.id}`)).total).toBe(13);
      refused(await call('GET', `/?client_id=${b.client.id}`, adminA), 403, 'You can only see the users of your own organisation');
      refused(await call('GET', '/?client_id=no-such-org', adminA), 403, 'You can only see the users of your own organisation');
      expect((await list('', adminB)).users.map((u) => u.name)).toEqual(['Bea Admin', 'Bob Beta']);
    });

    it('gives the superuser the organisation client_id names, or everybody; an unknown one is 404', async () => {
      const ofB = await list(`?client_id=${b.client.id}`, superuser);
      expect(ofB.users.map((u) => u.email)).toEqual(['bea@beta.test', 'bob@beta.test']);
      expect((await list(`?client_id=${a.client.id}&status=inactive`, superuser)).total).toBe(4);
      const everybody = await list('?page_size=100', superuser);
      const clients = new Set(everybody.users.map((u) => u.client_id));
      expect(clients.has(a.client.id) && clients.has(b.client.id)).toBe(true);
      expect(everybody.total).toBeGreaterThanOrEqual(13 + 2 + 3);
      expect((await list('?search=bob', superuser)).users.map((u) => u.name)).toEqual(['Bob Beta', 'Bob Brown']);
      refused(await call('GET', '/?client_id=no-such-org', superuser), 404, 'Organisation not found');
    });
  });

  describe('PATCH /users/{id}', () => {
    it("changes a person's name (trimmed), role, department and unit", async () => {
      const person = aPeople[4]!; // Eve East
      const view = await updated(person.id, { name: '  Eve Easton ', role: 'admin', department_id: a.department.id, unit_id: a.unit.id });
      expect(view).toMatchObject({ id: person.id, name: 'Eve Easton', role: 'admin', department_id: a.department.id, unit_id: a.unit.id });
      expect(Object.keys(view).sort()).toEqual(USER_KEYS);
      expect(await stored(person.id)).toMatchObject({ name: 'Eve Easton', role: 'admin', department_id: a.department.id, unit_id: a.unit.id });
      // A field left out keeps its value.
      expect(await updated(person.id, { role: 'user' })).toMatchObject({ name: 'Eve Easton', role: 'user', unit_id: a.unit.id });
      expect(await updated(person.id, {})).toMatchObject({ name: 'Eve Easton', role: 'user', department_id: a.department.id });
      // A new department without a unit clears the unit; null clears both.
      const legal = await insertDepartment(t.db, a.client.id, 'Legal');
      expect(await updated(person.id, { department_id: legal.id })).toMatchObject({ department_id: legal.id, unit_id: null });
      const contracts = await insertUnit(t.db, legal.id, 'Contracts');
      expect(await updated(person.id, { unit_id: contracts.id })).toMatchObject({ department_id: legal.id, unit_id: contracts.id });
      expect(await updated(person.id, { department_id: null })).toMatchObject({ department_id: null, unit_id: null });
      // The person's own next request sees the change.
      const own = bearer((await login(t.app, 'eve@alpha.test')).access_token);
      await updated(person.id, { name: 'Eve East', department_id: a.department.id, unit_id: a.unit.id });
      expect((await call('GET', '/me', own)).json().data).toMatchObject({ name: 'Eve East', department_id: a.department.id, unit_id: a.unit.id });
    });

    it('refuses a unit of another department, and a department or unit of another organisation (400)', async () => {
      const person = aPeople[5]!; // Finn Fox
      const other = await insertDepartment(t.db, a.client.id, 'Other Department');
      const otherUnit = await insertUnit(t.db, other.id, 'Other Unit');
      const cases: [object, string, string][] = [
        [{ department_id: a.department.id, unit_id: otherUnit.id }, 'Unit does not belong to the selected department', 'unit_id'],
        [{ department_id: b.department.id }, 'Department not found in this organisation', 'department_id'],
        [{ department_id: b.department.id, unit_id: b.unit.id }, 'Department not found in this organisation', 'department_id'],
        [{ department_id: a.department.id, unit_id: b.unit.id }, 'Unit does not belong to the selected department', 'unit_id'],
        [{ department_id: 'no-such-department' }, 'Department not found in this organisation', 'department_id'],
        [{ department_id: null, unit_id: a.unit.id }, 'Choose a department before choosing a unit', 'unit_id'],
        // A department with units needs one of them (spec section 5: the unit is required).
        [{ department_id: a.department.id }, 'Choose a unit of the selected department', 'unit_id'],
        [{ department_id: a.department.id, unit_id: null }, 'Choose a unit of the selected department', 'unit_id'],
        // Without a department, a unit alone is checked against the person's current one (none here).
        [{ unit_id: a.unit.id }, 'Choose a department before choosing a unit', 'unit_id'],
      ];
      for (const [payload, sentence, field] of cases) {
        const res = await patch(person.id, { name: 'Changed Anyway', ...payload });
        refused(res, 400, sentence);
        expect(errorEnvelope.parse(res.json()).fields).toEqual({ [field]: sentence });
      }
      // Nothing was changed by a refused request.
      expect(await stored(person.id)).toMatchObject({ name: 'Finn Fox', department_id: null, unit_id: null });
    });

    it('refuses invalid fields with sentences a person reads', async () => {
      const person = aPeople[6]!.id;
      const cases: [object, string][] = [
        [{ name: '' }, 'Full name is required'],
        [{ name: '   ' }, 'Full name is required'],
        [{ name: 7 }, 'Full name must be text'],
        [{ name: 'x'.repeat(101) }, 'Full name cannot be more than 100 characters'],
        [{ role: 'superuser' }, 'role must be user or admin'],
        [{ department_id: 5 }, 'department_id must be an id or null'],
        [{ unit_id: '' }, 'unit_id must be an id or null'],
      ];
      for (const [payload, sentence] of cases) refused(await patch(person, payload), 400, sentence);
      expect((await stored(person)).name).toBe('Gina Gold');
    });

    it("answers 404 for another organisation's person and for an unknown id, changing nothing", async () => {
      refused(await patch(bPerson.id, { name: 'Hijacked' }), 404, 'User not found');
      refused(await patch(bAdmin.id, { role: 'user' }), 404, 'User not found');
      refused(await patch('no-such-user', { name: 'Nobody' }), 404, 'User not found');
      // Nor can B's admin touch A's people, nor the superuser's account be reached.
      refused(await patch(aPeople[7]!.id, { name: 'Hijacked' }, adminB), 404, 'User not found');
      expect(await stored(bPerson.id)).toMatchObject({ name: 'Bob Beta', department_id: b.department.id, unit_id: b.unit.id });
      expect(await stored(bAdmin.id)).toMatchObject({ role: 'admin' });
      expect((await stored(aPeople[7]!.id)).name).toBe('Hal Hope');
    });

    it('lets an admin change their own name and department, never their own role', async () => {
      refused(await patch(aAdmin.id, { role: 'user' }), 400, 'You cannot change your own role');
      expect((await stored(aAdmin.id)).role).toBe('admin');
      // Sending the role they already have is no change (the Edit User modal always sends it).
      expect(await updated(aAdmin.id, { name: 'Ada Admin', role: 'admin', department_id: a.department.id, unit_id: a.unit.id })).toMatchObject({
        role: 'admin',
        department_id: a.department.id,
      });
      // Another admin of the organisation may change it.
      expect(await updated(aAdmin2.id, { role: 'user' })).toMatchObject({ role: 'user' });
      expect(await updated(aAdmin2.id, { role: 'admin' })).toMatchObject({ role: 'admin' });
    });
  });

  describe('PATCH /users/{id}/status', () => {
    const refresh = (token: string) => post(t.app, '/auth/refresh', undefined, bearer(token));

    it("deactivates a person: their access token is refused at once and every refresh token is revoked", async () => {
      const person = aPeople[8]!; // Ivy Ink, active
      const first = await login(t.app, 'ivy@alpha.test');
      const second = await login(t.app, 'ivy@alpha.test');
      const res = await setStatus(person.id, 'inactive');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe('User status updated successfully');
      expect(successEnvelope(userSchema).parse(res.json()).data).toMatchObject({ id: person.id, status: 'inactive' });
      for (const session of [first, second]) {
        refused(await call('GET', '/me', bearer(session.access_token)), 401, INACTIVE);
        const stored = await findRefreshTokenByHash(t.db, sha256Hex(session.refresh_token));
        expect(stored?.revoked_at).not.toBeNull();
        expect((await refresh(session.refresh_token)).statusCode).toBe(401);
      }
      expect((await list('?status=inactive&search=ivy')).users.map((u) => u.id)).toEqual([person.id]);

      // Active again: the old sessions stay ended, a new sign-in works.
      expect((await setStatus(person.id, 'active')).statusCode).toBe(200);
      for (const session of [first, second]) expect((await refresh(session.refresh_token)).statusCode).toBe(401);
      const again = await login(t.app, 'ivy@alpha.test');
      expect((await call('GET', '/me', bearer(again.access_token))).statusCode).toBe(200);
      expect((await refresh(again.refresh_token)).statusCode).toBe(200);
    });

    it("ends a deactivated admin's powers at once", async () => {
      const other = await login(t.app, 'abel@alpha.test');
      expect((await setStatus(aAdmin2.id, 'inactive')).statusCode).toBe(200);
      refused(await call('GET', '/', bearer(other.access_token)), 401, INACTIVE);
      refused(await setStatus(aAdmin.id, 'inactive', bearer(other.access_token)), 401, INACTIVE);
      expect((await stored(aAdmin.id)).status).toBe('active');
      expect((await setStatus(aAdmin2.id, 'active')).statusCode).toBe(200);
    });

    it('never lets an admin deactivate themself', async () => {
      refused(await setStatus(aAdmin.id, 'inactive'), 400, 'You cannot deactivate your own account');
      expect((await stored(aAdmin.id)).status).toBe('active');
      expect((await call('GET', '/me', adminA)).statusCode).toBe(200);
    });

    it("answers 404 for another organisation's person or an unknown id, and 400 for a missing or wrong status", async () => {
      const session = await login(t.app, 'bob@beta.test');
      refused(await setStatus(bPerson.id, 'inactive'), 404, 'User not found');
      refused(await setStatus(bAdmin.id, 'inactive'), 404, 'User not found');
      refused(await setStatus('no-such-user', 'inactive'), 404, 'User not found');
      refused(await setStatus(aPeople[9]!.id, 'inactive', adminB), 404, 'User not found');
      expect((await stored(bPerson.id)).status).toBe('active');
      expect((await refresh(session.refresh_token)).statusCode).toBe(200);
      refused(await call('PATCH', `/${aPeople[9]!.id}/status`, adminA), 400, 'status must be active or inactive');
      refused(await setStatus(aPeople[9]!.id, 'pending'), 400, 'status must be active or inactive');
      expect((await stored(aPeople[9]!.id)).status).toBe('inactive');
    });
  });
});
