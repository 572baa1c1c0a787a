import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByEmail } from '../../server/db/repositories/users';
import { bearer, errorDetail, login } from './helpers/fixtures';
import { createTestApp, type TestApp } from './helpers/test-app';

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
}

describe('access tokens signed with the right secret but the wrong claims', () => {
  let t: TestApp;
  let userId: string;
  let clientId: string | null;
  /** The session claims of a real sign-in, so the tokens below differ from the server's own only where they say. */
  let session: { sv: number; sid: string };
  beforeAll(async () => {
    t = await createTestApp();
    const user = await findUserByEmail(t.db, 'user@demo.local');
    userId = user!.id;
    clientId = user!.client_id;
    const { sv, sid } = claimsOf((await login(t.app, 'user@demo.local')).access_token);
    session = { sv: sv as number, sid: sid as string };
  });
  afterAll(() => t.close());

  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(token) });

  /** A token like the server's own, with `change` applied to its claims. */
  function handSigned(change: { exp?: boolean; iss?: string | null; aud?: string | null; claims?: Record<string, unknown> }) {
    // JSON leaves out a claim set to undefined.
    const jwt = new SignJWT({ role: 'user', client_id: clientId, ...session, ...change.claims })
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

  it('signs its own tokens with the issuer, the audience, an expiry and the session', async () => {
    const session = await login(t.app, 'user@demo.local');
    const payload = claimsOf(session.access_token);
    expect(payload).toMatchObject({ iss: 'tanya', aud: 'tanya-api', exp: expect.any(Number), sv: 0, sid: expect.any(String) });
    expect((await me(session.access_token)).statusCode).toBe(200);
  });

  it('refuses a token without the session claims (signed before sessions were versioned)', async () => {
    const res = await me(await handSigned({ claims: { sv: undefined, sid: undefined } }));
    expect(res.statusCode).toBe(401);
    expect(errorDetail(res)).toBe('Not authenticated');
  });

  it('refuses a token of another session version or of a sign-in that does not exist', async () => {
    for (const claims of [{ sv: session.sv + 1 }, { sid: 'no-such-sign-in' }]) {
      const res = await me(await handSigned({ claims }));
      expect(res.statusCode, JSON.stringify(claims)).toBe(401);
      expect(errorDetail(res)).toBe('Session expired');
    }
  });
});
