import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPasswordReset } from '../../server/db/repositories/password-resets';
import type { UserRecord } from '../../server/db/repositories/users';
import { newOpaqueToken } from '../../server/services/identity/tokens';
import { addUser, API, bearer, demoClientId, errorDetail, login, post } from './helpers/fixtures';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

// An access token lives 15 minutes. Ending a session must refuse its access token on the very next request, not when
// it expires: logout (that sign-in only), a new password, deactivation and a role change (every sign-in of the person).

describe(`access tokens of an ended session (${dbKind})`, () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let clientId: string;
  /** Someone else of the same organisation, signed in all along: never affected. */
  let bystander: Tokens;
  let n = 0;
  beforeAll(async () => {
    t = await createTestApp();
    admin = bearer((await login(t.app, 'admin@demo.local')).access_token);
    clientId = await demoClientId(t.db);
    bystander = await login(t.app, 'user@demo.local');
  });
  afterAll(() => t.close());

  const me = (token: string) => t.app.inject({ method: 'GET', url: `${API}/users/me`, headers: bearer(token) });
  const refresh = (token: string) => post(t.app, '/auth/refresh', undefined, bearer(token));
  const refused = async (token: string, label: string) => {
    const res = await me(token);
    expect(res.statusCode, label).toBe(401);
    return errorDetail(res);
  };
  const accepted = async (token: string, label: string) => expect((await me(token)).statusCode, label).toBe(200);

  /** A new person of the demo organisation, signed in on two devices. */
  async function signedIn(): Promise<{ person: UserRecord; first: Tokens; second: Tokens }> {
    n += 1;
    const person = await addUser(t.db, { client_id: clientId, name: `Person ${n}`, email: `person${n}@demo.local` });
    const first = await login(t.app, person.email);
    const second = await login(t.app, person.email);
    await accepted(first.access_token, 'first device before');
    await accepted(second.access_token, 'second device before');
    return { person, first, second };
  }
  type Tokens = { access_token: string; refresh_token: string };

  it('logout refuses that sign-in\'s access token at once, and no other device\'s', async () => {
    const { first, second } = await signedIn();
    expect((await post(t.app, '/auth/logout', { refresh_token: first.refresh_token })).statusCode).toBe(200);
    expect(await refused(first.access_token, 'logged-out device')).toBe('Session expired');
    await accepted(second.access_token, 'other device');
    expect((await refresh(second.refresh_token)).statusCode).toBe(200);
    await accepted(bystander.access_token, 'bystander');
  });

  it('logout also refuses the access tokens that sign-in was given earlier, before its last refresh', async () => {
    const { first } = await signedIn();
    const rotated = (await refresh(first.refresh_token)).json().data as Tokens;
    await accepted(rotated.access_token, 'rotated');
    await post(t.app, '/auth/logout', { refresh_token: rotated.refresh_token });
    await refused(first.access_token, 'before the refresh');
    await refused(rotated.access_token, 'after the refresh');
  });

  it('a password reset refuses every access token of the person at once, and their refresh tokens', async () => {
    const { person, first, second } = await signedIn();
    const reset = newOpaqueToken();
    await insertPasswordReset(t.db, { user_id: person.id, token_hash: reset.hash }, 60_000);
    expect((await post(t.app, '/auth/reset-password', { token: reset.token, new_password: 'a-brand-new-password' })).statusCode).toBe(200);
    expect(await refused(first.access_token, 'first device')).toBe('Session expired');
    await refused(second.access_token, 'second device');
    for (const token of [first.refresh_token, second.refresh_token]) expect((await refresh(token)).statusCode).toBe(401);
    await accepted(bystander.access_token, 'bystander');
    // Signing in with the new password starts a session that works.
    await accepted((await login(t.app, person.email, 'a-brand-new-password')).access_token, 'new sign-in');
  });

  it('deactivation refuses every access token of the person at once; coming back needs a new sign-in', async () => {
    const { person, first, second } = await signedIn();
    const off = await t.app.inject({ method: 'PATCH', url: `${API}/users/${person.id}/status?status=inactive`, headers: admin });
    expect(off.statusCode, off.body).toBe(200);
    await refused(first.access_token, 'first device');
    await refused(second.access_token, 'second device');
    await accepted(bystander.access_token, 'bystander');
    const on = await t.app.inject({ method: 'PATCH', url: `${API}/users/${person.id}/status?status=active`, headers: admin });
    expect(on.statusCode, on.body).toBe(200);
    // Active again, but the sessions that were ended stay ended.
    expect(await refused(first.access_token, 'first device, reactivated')).toBe('Session expired');
    expect((await refresh(second.refresh_token)).statusCode).toBe(401);
    await accepted((await login(t.app, person.email)).access_token, 'new sign-in');
  });

  it('a role change refuses the person\'s access tokens at once; a refresh gets one with the new role', async () => {
    const { person, first, second } = await signedIn();
    const res = await t.app.inject({ method: 'PATCH', url: `${API}/users/${person.id}`, headers: admin, payload: { role: 'admin' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await refused(first.access_token, 'first device')).toBe('Session expired');
    await refused(second.access_token, 'second device');
    await accepted(bystander.access_token, 'bystander');
    const renewed = await refresh(first.refresh_token);
    expect(renewed.statusCode).toBe(200);
    const now = await me((renewed.json().data as Tokens).access_token);
    expect(now.statusCode).toBe(200);
    expect(now.json().data.role).toBe('admin');
  });

  it('a change that leaves the role as it was ends nothing', async () => {
    const { person, first } = await signedIn();
    const res = await t.app.inject({ method: 'PATCH', url: `${API}/users/${person.id}`, headers: admin, payload: { role: 'user', name: 'Renamed' } });
    expect(res.statusCode, res.body).toBe(200);
    await accepted(first.access_token, 'same role');
  });
});
