import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope, successEnvelope } from '../../contract/envelope';
import { user as userSchema } from '../../contract/user';
import { userList } from '../../contract/users';
import { USER_NOT_FOUND, USER_STATUS_UPDATED, USER_UPDATED } from '../../contract/users-constants';
import { findUserByEmail, findUserById } from '../../server/db/repositories/users';
import { API, addUser, bearer, createOrganisation, login } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

describe(`the superuser manages the people of any organisation (${dbKind})`, () => {
  let t: TestApp;
  let superuser: Record<string, string>;
  let org: Awaited<ReturnType<typeof createOrganisation>>;
  let other: Awaited<ReturnType<typeof createOrganisation>>;
  let personId: string;
  let otherAdmin: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    superuser = bearer((await login(t.app, 'super@demo.local')).access_token);
    org = await createOrganisation(t.db, { name: 'Managed Org' });
    other = await createOrganisation(t.db, { name: 'Bystander Org' });
    personId = (await addUser(t.db, { client_id: org.client.id, name: 'Pia Person', email: 'pia@managed.test' })).id;
    await addUser(t.db, { client_id: other.client.id, name: 'Oz Admin', email: 'oz@bystander.test', role: 'admin' });
    otherAdmin = bearer((await login(t.app, 'oz@bystander.test')).access_token);
  });
  afterAll(() => t?.close());

  const patch = (url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method: 'PATCH', url: `${API}/users/${url}`, headers, payload });
  const userOf = (res: LightMyRequestResponse, message: string) => {
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(message);
    return successEnvelope(userSchema).parse(res.json()).data;
  };

  it("lists a client's people with client_id", async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/users/?client_id=${org.client.id}`, headers: superuser });
    expect(res.statusCode, res.body).toBe(200);
    expect(successEnvelope(userList).parse(res.json()).data.users.map((u) => u.name)).toEqual(['Pia Person']);
  });

  it("changes a person's name, role, department and unit in their own organisation", async () => {
    const changed = userOf(
      await patch(personId, superuser, { name: 'Pia Promoted', role: 'admin', department_id: org.department.id, unit_id: org.unit.id }),
      USER_UPDATED,
    );
    expect(changed).toMatchObject({ name: 'Pia Promoted', role: 'admin', department_id: org.department.id, unit_id: org.unit.id, client_id: org.client.id });
    // Another organisation's department is not this person's to have.
    const wrong = await patch(personId, superuser, { department_id: other.department.id });
    expect(wrong.statusCode).toBe(400);
    expect((await findUserById(t.db, personId))!.department_id).toBe(org.department.id);
  });

  it('deactivates and reactivates a person, ending their sessions', async () => {
    const session = await login(t.app, 'pia@managed.test');
    expect(userOf(await patch(`${personId}/status?status=inactive`, superuser), USER_STATUS_UPDATED).status).toBe('inactive');
    const me = await t.app.inject({ method: 'GET', url: `${API}/users/me`, headers: bearer(session.access_token) });
    expect(me.statusCode).toBe(401);
    expect(userOf(await patch(`${personId}/status?status=active`, superuser), USER_STATUS_UPDATED).status).toBe('active');
  });

  it('cannot reach a superuser (no organisation) or an unknown person: 404', async () => {
    const self = (await findUserByEmail(t.db, 'super@demo.local'))!;
    for (const url of [self.id, `${self.id}/status?status=inactive`, 'no-such-person', 'no-such-person/status?status=inactive']) {
      const res = await patch(url, superuser, url.includes('status') ? undefined : { name: 'Nobody' });
      expect(res.statusCode, url).toBe(404);
      expect(errorEnvelope.parse(res.json()).detail).toBe(USER_NOT_FOUND);
    }
    expect((await findUserById(t.db, self.id))!.status).toBe('active');
  });

  it("still keeps an admin to their own organisation: another organisation's person is 404", async () => {
    expect((await patch(personId, otherAdmin, { name: 'Hijacked' })).statusCode).toBe(404);
    expect((await patch(`${personId}/status?status=inactive`, otherAdmin)).statusCode).toBe(404);
    expect((await findUserById(t.db, personId))!).toMatchObject({ name: 'Pia Promoted', status: 'active' });
  });
});
