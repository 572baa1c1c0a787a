import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccessTokenError, createTokenService } from '../../server/services/tokens';

const SECRET = 'a-test-secret-of-enough-length-0123456789';

describe('verified access tokens', () => {
  afterEach(() => vi.useRealTimers());

  it('stay valid on later checks until they expire, then count as expired', async () => {
    const tokens = createTokenService(SECRET, 60);
    const token = await tokens.signAccessToken({ sub: 'u1', role: 'user', client_id: 'c1' });
    const claims = { sub: 'u1', role: 'user', client_id: 'c1' };
    expect(await tokens.verifyAccessToken(token)).toEqual(claims);
    expect(await tokens.verifyAccessToken(token)).toEqual(claims);
    vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ['Date'] });
    await expect(tokens.verifyAccessToken(token)).rejects.toEqual(new AccessTokenError('expired'));
    await expect(tokens.verifyAccessToken(token)).rejects.toEqual(new AccessTokenError('expired'));
  });

  it('are never taken from another secret, and a changed token is checked afresh', async () => {
    const token = await createTokenService(SECRET, 60).signAccessToken({ sub: 'u1', role: 'user', client_id: null });
    const other = createTokenService(`${SECRET}-other`, 60);
    await expect(other.verifyAccessToken(token)).rejects.toEqual(new AccessTokenError('invalid'));
    const tokens = createTokenService(SECRET, 60);
    expect(await tokens.verifyAccessToken(token)).toMatchObject({ sub: 'u1' });
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'AB' : 'AA'}`;
    await expect(tokens.verifyAccessToken(tampered)).rejects.toEqual(new AccessTokenError('invalid'));
  });
});
