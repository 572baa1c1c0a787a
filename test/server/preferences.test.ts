import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { successEnvelope } from '../../contract/envelope';
import { user as userSchema } from '../../contract/user';
import { bearer, errorDetail, login } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

// The colour theme kept with the person (issue 28): chosen on one device, there on every sign-in.

describe(`PATCH /users/me/preferences (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = (await login(t.app, 'user@demo.local')).access_token;
  });
  afterAll(() => t.close());

  const save = (payload: unknown, headers: Record<string, string> = bearer(token)) =>
    t.app.inject({ method: 'PATCH', url: '/api/v1/users/me/preferences', payload: payload as object, headers });
  const me = async (tok = token) => successEnvelope(userSchema).parse((await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(tok) })).json()).data;

  it('starts at system, saves a choice, and every later sign-in (another device) brings it', async () => {
    expect((await me()).theme).toBe('system');
    const res = await save({ theme: 'dark' });
    expect(res.statusCode).toBe(200);
    const body = successEnvelope(userSchema).parse(res.json());
    expect(body.message).toBe('Preferences saved');
    expect(body.data).toMatchObject({ email: 'user@demo.local', theme: 'dark' });
    expect((await me()).theme).toBe('dark');
    const elsewhere = await login(t.app, 'user@demo.local');
    expect((elsewhere.user as { theme?: string }).theme).toBe('dark');
    // The same session goes on: saving a preference ends no sign-in.
    expect((await me(token)).email).toBe('user@demo.local');

    expect((await save({ theme: 'light' })).statusCode).toBe(200);
    expect((await me(elsewhere.access_token)).theme).toBe('light');
    // Another person's is their own.
    expect((await me((await login(t.app, 'newhire@demo.local')).access_token)).theme).toBe('system');
  });

  it('refuses anything but system, light or dark with 400 and the sentence', async () => {
    for (const payload of [{ theme: 'blue' }, { theme: null }, {}, { theme: 1 }]) {
      const res = await save(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorDetail(res)).toContain('theme must be one of system, light, dark');
    }
    expect((await save('dark', { ...bearer(token), 'content-type': 'application/json' })).statusCode).toBe(400);
  });

  it('needs a session', async () => {
    expect((await save({ theme: 'dark' }, {})).statusCode).toBe(401);
  });

  it("is left out of an admin's list of people (a personal setting)", async () => {
    const admin = await login(t.app, 'admin@demo.local');
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/users/?page_size=100', headers: bearer(admin.access_token) });
    expect(res.statusCode).toBe(200);
    const people = res.json().data.users as Array<Record<string, unknown>>;
    expect(people.length).toBeGreaterThan(1);
    for (const person of people) expect(person).not.toHaveProperty('theme');
  });
});
