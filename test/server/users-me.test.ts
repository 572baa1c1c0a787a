import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { successEnvelope } from '../../contract/envelope';
import { user as userSchema } from '../../contract/user';
import { findUserByEmail } from '../../server/db/repositories/users';
import { bearer, errorDetail, login } from './helpers/fixtures';
import { createTestApp, type TestApp } from './helpers/test-app';

describe('GET /users/me', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const me = (headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers });

  it('returns the signed-in user in the contract shape, without secrets', async () => {
    const session = await login(t.app, 'user@demo.local');
    const res = await me(bearer(session.access_token));
    expect(res.statusCode).toBe(200);
    const body = successEnvelope(userSchema).strict().parse(res.json());
    expect(Object.keys(body.data).sort()).toEqual(Object.keys(userSchema.shape).sort());
    expect(body.data).toMatchObject({ email: 'user@demo.local', package_name: 'premium' });
    expect(res.body).not.toMatch(/password|argon2|refresh_token/);
  });

  it('answers 401 Not authenticated without a token, with a malformed or forged one', async () => {
    for (const headers of [{}, { authorization: 'Bearer' }, { authorization: 'Basic abc' }, bearer('not.a.jwt')]) {
      const res = await me(headers);
      expect(res.statusCode).toBe(401);
      expect(errorDetail(res)).toBe('Not authenticated');
    }
    const user = await findUserByEmail(t.db, 'super@demo.local');
    const forged = await new SignJWT({ role: 'superuser', client_id: null })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user!.id)
      .setIssuer('tanya')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('some-other-secret-that-is-long-enough!!'));
    expect((await me(bearer(forged))).statusCode).toBe(401);
  });

  it('answers 401 Session expired for an expired access token', async () => {
    const user = await findUserByEmail(t.db, 'user@demo.local');
    const expired = await new SignJWT({ role: 'user', client_id: user!.client_id })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user!.id)
      .setIssuer('tanya')
      .setAudience('tanya-api')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 1000)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(t.config.jwtSecret!));
    const res = await me(bearer(expired));
    expect(res.statusCode).toBe(401);
    expect(errorDetail(res)).toBe('Session expired');
  });

  it('signs access tokens that expire after ACCESS_TOKEN_TTL_SECONDS', async () => {
    const session = await login(t.app, 'admin@demo.local');
    const payload = JSON.parse(Buffer.from(session.access_token.split('.')[1], 'base64url').toString()) as Record<
      string,
      unknown
    >;
    expect(payload).toMatchObject({ sub: session.user.id, role: 'admin', client_id: expect.any(String) });
    expect(Number(payload.exp) - Number(payload.iat)).toBe(t.config.accessTokenTtlSeconds);
  });
});
