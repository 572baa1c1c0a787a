import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByEmail } from '../../server/db/repositories/users';
import { bearer, errorDetail, login } from './helpers/fixtures';
import { createTestApp, type TestApp } from './helpers/test-app';

describe('access tokens signed with the right secret but the wrong claims', () => {
  let t: TestApp;
  let userId: string;
  let clientId: string | null;
  beforeAll(async () => {
    t = await createTestApp();
    const user = await findUserByEmail(t.db, 'user@demo.local');
    userId = user!.id;
    clientId = user!.client_id;
  });
  afterAll(() => t.close());

  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) });

  /** A token like the server's own, with `change` applied to its claims. */
  function handSigned(change: { exp?: boolean; iss?: string | null; aud?: string | null }) {
    const jwt = new SignJWT({ role: 'user', client_id: clientId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuedAt();
    if (change.exp !== false) jwt.setExpirationTime('5m');
    if (change.iss !== null) jwt.setIssuer(change.iss ?? 'tanya');
    if (change.aud !== null) jwt.setAudience(change.aud ?? 'tanya-api');
    return jwt.sign(new TextEncoder().encode(t.config.jwtSecret!));
  }

  it('accepts a token with every claim right (so the refusals below are about the claims)', async () => {
    expect((await me(await handSigned({}))).statusCode).toBe(200);
  });

  it('refuses a token that never expires', async () => {
    const res = await me(await handSigned({ exp: false }));
    expect(res.statusCode).toBe(401);
    expect(errorDetail(res)).toBe('Not authenticated');
  });

  it('refuses a missing or wrong issuer', async () => {
    for (const iss of [null, 'someone-else']) {
      const res = await me(await handSigned({ iss }));
      expect(res.statusCode).toBe(401);
      expect(errorDetail(res)).toBe('Not authenticated');
    }
  });

  it('refuses a missing or wrong audience', async () => {
    for (const aud of [null, 'tanya-activation']) {
      const res = await me(await handSigned({ aud }));
      expect(res.statusCode).toBe(401);
      expect(errorDetail(res)).toBe('Not authenticated');
    }
  });

  it('signs its own tokens with the issuer, the audience and an expiry', async () => {
    const session = await login(t.app, 'user@demo.local');
    const payload = JSON.parse(Buffer.from(session.access_token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
    expect(payload).toMatchObject({ iss: 'tanya', aud: 'tanya-api', exp: expect.any(Number) });
    expect((await me(session.access_token)).statusCode).toBe(200);
  });
});
