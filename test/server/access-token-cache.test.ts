import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccessTokenError, createTokenService } from '../../server/services/identity/tokens';

const SECRET = 'a-test-secret-of-enough-length-0123456789';

describe('verified access tokens', () => {
  afterEach(() => vi.useRealTimers());

  it('stay valid on later checks until they expire, then count as expired', async () => {
    const tokens = createTokenService(SECRET, 60);
    const claims = { sub: 'u1', role: 'user', client_id: 'c1', sv: 3, sid: 'f1' } as const;
    const token = await tokens.signAccessToken(claims);
    expect(await tokens.verifyAccessToken(token)).toEqual(claims);
    expect(await tokens.verifyAccessToken(token)).toEqual(claims);
    vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ['Date'] });
    await expect(tokens.verifyAccessToken(token)).rejects.toEqual(new AccessTokenError('expired'));
    await expect(tokens.verifyAccessToken(token)).rejects.toEqual(new AccessTokenError('expired'));
  });

  it('are never taken from another secret, and a changed token is checked afresh', async () => {
    const token = await createTokenService(SECRET, 60).signAccessToken({ sub: 'u1', role: 'user', client_id: null, sv: 0, sid: 'f1' });
    const other = createTokenService(`${SECRET}-other`, 60);
    await expect(other.verifyAccessToken(token)).rejects.toEqual(new AccessTokenError('invalid'));
    const tokens = createTokenService(SECRET, 60);
    expect(await tokens.verifyAccessToken(token)).toMatchObject({ sub: 'u1' });
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'AB' : 'AA'}`;
    await expect(tokens.verifyAccessToken(tampered)).rejects.toEqual(new AccessTokenError('invalid'));
  });

  it('are refused without the session they belong to (signed before sessions were versioned)', async () => {
    const tokens = createTokenService(SECRET, 60);
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT({ role: 'user', client_id: null, ...claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject('u1')
        .setIssuer('tanya')
        .setAudience('tanya-api')
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(SECRET));
    expect(await tokens.verifyAccessToken(await sign({ sv: 0, sid: 'f1' }))).toMatchObject({ sv: 0, sid: 'f1' });
    for (const claims of [{}, { sid: 'f1' }, { sv: 0 }, { sv: '0', sid: 'f1' }, { sv: 1.5, sid: 'f1' }, { sv: 0, sid: '' }]) {
      await expect(tokens.verifyAccessToken(await sign(claims)), JSON.stringify(claims)).rejects.toEqual(new AccessTokenError('invalid'));
    }
  });
});
