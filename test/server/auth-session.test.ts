import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshResponse } from '../../contract/auth';
import { successEnvelope } from '../../contract/envelope';
import { updateClientStatus } from '../../server/db/repositories/clients';
import { findRefreshTokenByHash } from '../../server/db/repositories/refresh-tokens';
import { updateUserStatus } from '../../server/db/repositories/users';
import { sha256Hex } from '../../server/services/identity/tokens';
import { addUser, bearer, createOrganisation, errorDetail, login, post } from './helpers/fixtures';
import { createTestApp, type TestApp } from './helpers/test-app';

describe('refresh and logout', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const refresh = (token: string) => post(t.app, '/auth/refresh', undefined, bearer(token));
  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) });

  it('rotates: the new pair works, the old access token stays valid until it expires', async () => {
    const first = await login(t.app, 'user@demo.local');
    const res = await refresh(first.refresh_token);
    expect(res.statusCode).toBe(200);
    const next = successEnvelope(refreshResponse).parse(res.json()).data;
    expect(next.refresh_token).not.toBe(first.refresh_token);
    expect((await me(next.access_token)).statusCode).toBe(200);
    expect((await me(first.access_token)).statusCode).toBe(200);

    const stored = await findRefreshTokenByHash(t.db, sha256Hex(first.refresh_token));
    const rotated = await findRefreshTokenByHash(t.db, sha256Hex(next.refresh_token));
    expect(stored?.used_at).toEqual(expect.any(String));
    expect(rotated?.family_id).toBe(stored?.family_id);
    expect((await refresh(next.refresh_token)).statusCode).toBe(200);
  });

  it('treats reuse of a used refresh token as theft: the whole family is revoked', async () => {
    const first = await login(t.app, 'user@demo.local');
    const second = (await refresh(first.refresh_token)).json().data.refresh_token as string;
    const third = (await refresh(second)).json().data.refresh_token as string;

    const reuse = await refresh(first.refresh_token);
    expect(reuse.statusCode).toBe(401);
    expect(errorDetail(reuse)).toBe('Session expired');
    // The newest token, never used, is dead too.
    expect((await refresh(third)).statusCode).toBe(401);
    // Other sessions of the same person are separate families and keep working.
    const other = await login(t.app, 'user@demo.local');
    expect((await refresh(other.refresh_token)).statusCode).toBe(200);
  });

  it('refuses a missing, unknown, or expired refresh token', async () => {
    const missing = await post(t.app, '/auth/refresh');
    expect(missing.statusCode).toBe(401);
    expect(errorDetail(missing)).toBe('Not authenticated');
    expect((await refresh('made-up-token')).statusCode).toBe(401);

    const session = await login(t.app, 'user@demo.local');
    await t.db
      .updateTable('refresh_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', sha256Hex(session.refresh_token))
      .execute();
    const expired = await refresh(session.refresh_token);
    expect(expired.statusCode).toBe(401);
    expect(errorDetail(expired)).toBe('Session expired');
  });

  it('accepts a body-less refresh sent with a JSON content type', async () => {
    const session = await login(t.app, 'user@demo.local');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      headers: { ...bearer(session.refresh_token), 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses to refresh for a user who became inactive, and for an organisation switched off', async () => {
    const { client } = await createOrganisation(t.db, { name: 'Soon Off' });
    const user = await addUser(t.db, { client_id: client.id, name: 'Ivan', email: 'ivan@soon-off.test' });
    const a = await login(t.app, 'ivan@soon-off.test');
    await updateUserStatus(t.db, user.id, 'inactive');
    const res = await refresh(a.refresh_token);
    expect(res.statusCode).toBe(401);
    expect(errorDetail(res)).toBe('Your account is inactive. Please contact your administrator.');
    // And the access token stops working at once: the user is read on every request.
    expect((await me(a.access_token)).statusCode).toBe(401);

    await updateUserStatus(t.db, user.id, 'active');
    const b = await login(t.app, 'ivan@soon-off.test');
    await updateClientStatus(t.db, client.id, 'inactive');
    const off = await refresh(b.refresh_token);
    expect(off.statusCode).toBe(401);
    expect(off.json().code).toBe('subscription_expired');
    expect((await me(b.access_token)).statusCode).toBe(401);
  });

  it('logout revokes the family; it is idempotent and needs no access token', async () => {
    const session = await login(t.app, 'user@demo.local');
    const rotated = (await refresh(session.refresh_token)).json().data.refresh_token as string;
    const res = await post(t.app, '/auth/logout', { refresh_token: rotated });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'success' });
    expect((await refresh(rotated)).statusCode).toBe(401);

    expect((await post(t.app, '/auth/logout', { refresh_token: rotated })).statusCode).toBe(200);
    expect((await post(t.app, '/auth/logout', { refresh_token: 'never-issued' })).statusCode).toBe(200);
    expect((await post(t.app, '/auth/logout', {})).statusCode).toBe(200);
    expect((await post(t.app, '/auth/logout')).statusCode).toBe(200);
  });
});
