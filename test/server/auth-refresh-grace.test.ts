import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshResponse } from '../../contract/auth';
import { successEnvelope } from '../../contract/envelope';
import { sha256Hex } from '../../server/services/identity/tokens';
import { bearer, errorDetail, login, post } from './helpers/fixtures';
import { createTestApp, type TestApp } from './helpers/test-app';

describe('refreshing twice with the same refresh token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const refresh = (token: string) => post(t.app, '/auth/refresh', undefined, bearer(token));
  const tokensOf = async (res: Awaited<ReturnType<typeof refresh>>) => {
    expect(res.statusCode).toBe(200);
    return successEnvelope(refreshResponse).parse(res.json()).data;
  };
  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) });
  /** Moves the moment a refresh token was used into the past, as if that much time had gone by. */
  const usedSecondsAgo = (token: string, seconds: number) =>
    t.db
      .updateTable('refresh_tokens')
      .set({ used_at: new Date(Date.now() - seconds * 1000).toISOString() })
      .where('token_hash', '=', sha256Hex(token))
      .execute();

  it('two tabs refreshing at once both stay signed in, with the same new pair', async () => {
    const session = await login(t.app, 'user@demo.local');
    const [a, b] = await Promise.all([refresh(session.refresh_token), refresh(session.refresh_token)]);
    const first = await tokensOf(a);
    const second = await tokensOf(b);
    expect(second.refresh_token).toBe(first.refresh_token);
    expect((await me(first.access_token)).statusCode).toBe(200);
    expect((await me(second.access_token)).statusCode).toBe(200);
    // The family is alive: the shared new refresh token rotates on.
    const next = await tokensOf(await refresh(first.refresh_token));
    expect((await me(next.access_token)).statusCode).toBe(200);
  });

  it('a retry after a lost answer gets the same refresh token again', async () => {
    const session = await login(t.app, 'user@demo.local');
    const lost = await tokensOf(await refresh(session.refresh_token));
    await usedSecondsAgo(session.refresh_token, 25);
    const retried = await tokensOf(await refresh(session.refresh_token));
    expect(retried.refresh_token).toBe(lost.refresh_token);
    expect((await me(retried.access_token)).statusCode).toBe(200);
    expect((await refresh(retried.refresh_token)).statusCode).toBe(200);
  });

  it('reuse after the grace period still revokes the whole family', async () => {
    const session = await login(t.app, 'user@demo.local');
    const rotated = await tokensOf(await refresh(session.refresh_token));
    await usedSecondsAgo(session.refresh_token, 31);
    const reuse = await refresh(session.refresh_token);
    expect(reuse.statusCode).toBe(401);
    expect(errorDetail(reuse)).toBe('Session expired');
    // The winner's token, never used, is dead too.
    expect((await refresh(rotated.refresh_token)).statusCode).toBe(401);
  });

  it('a repeat within the grace period after the new token was used on is reuse too', async () => {
    const session = await login(t.app, 'user@demo.local');
    const second = await tokensOf(await refresh(session.refresh_token));
    const third = await tokensOf(await refresh(second.refresh_token));
    expect((await refresh(session.refresh_token)).statusCode).toBe(401);
    expect((await refresh(third.refresh_token)).statusCode).toBe(401);
  });

  it('a repeat after logout does not bring the session back', async () => {
    const session = await login(t.app, 'user@demo.local');
    const rotated = await tokensOf(await refresh(session.refresh_token));
    expect((await post(t.app, '/auth/logout', { refresh_token: rotated.refresh_token })).statusCode).toBe(200);
    expect((await refresh(session.refresh_token)).statusCode).toBe(401);
  });
});

describe('REFRESH_REUSE_GRACE_SECONDS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { REFRESH_REUSE_GRACE_SECONDS: '0' } });
  });
  afterAll(() => t.close());

  it('0 turns the grace period off: any second use revokes the family', async () => {
    const session = await login(t.app, 'user@demo.local');
    const first = await post(t.app, '/auth/refresh', undefined, bearer(session.refresh_token));
    expect(first.statusCode).toBe(200);
    expect((await post(t.app, '/auth/refresh', undefined, bearer(session.refresh_token))).statusCode).toBe(401);
    expect((await post(t.app, '/auth/refresh', undefined, bearer(first.json().data.refresh_token as string))).statusCode).toBe(401);
  });
});
