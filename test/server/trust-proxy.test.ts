import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { createTestApp, DEMO_PASSWORD, type TestApp } from './helpers/test-app';

const PROXY = '10.9.0.1';

/** Sign-in attempts arriving from `remoteAddress` (the connecting peer) with an X-Forwarded-For header. */
function loginVia(t: TestApp, remoteAddress: string, forwardedFor: string, password = 'wrong-password') {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    remoteAddress,
    headers: { 'x-forwarded-for': forwardedFor },
    payload: { email: 'admin@demo.local', password },
  });
}

describe('behind a proxy with TRUST_PROXY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: `${PROXY}, 10.8.0.0/16`, LOGIN_RATE_LIMIT_PER_IP_EMAIL: '3' } });
  });
  afterAll(() => t.close());

  it('limits each client address from X-Forwarded-For separately', async () => {
    for (let i = 0; i < 3; i++) expect((await loginVia(t, PROXY, '198.51.100.7')).statusCode).toBe(401);
    expect((await loginVia(t, PROXY, '198.51.100.7')).statusCode).toBe(429);
    // Another person behind the same proxy signs in; so does one behind a second trusted hop (a CIDR entry).
    expect((await loginVia(t, PROXY, '198.51.100.8', DEMO_PASSWORD)).statusCode).toBe(200);
    expect((await loginVia(t, PROXY, '198.51.100.9, 10.8.3.4', DEMO_PASSWORD)).statusCode).toBe(200);
    // The failing client cannot hide behind a made-up hop: the first untrusted address from the right is the client.
    expect((await loginVia(t, PROXY, '203.0.113.1, 198.51.100.7', DEMO_PASSWORD)).statusCode).toBe(429);
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    for (let i = 0; i < 3; i++) expect((await loginVia(t, '10.7.0.1', `192.0.2.${i + 1}`)).statusCode).toBe(401);
    expect((await loginVia(t, '10.7.0.1', '192.0.2.99', DEMO_PASSWORD)).statusCode).toBe(429);
  });
});

describe('without TRUST_PROXY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_RATE_LIMIT_PER_IP_EMAIL: '3' } });
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-For: everyone behind one proxy shares its limit', async () => {
    for (let i = 0; i < 3; i++) expect((await loginVia(t, PROXY, `198.51.100.${i + 1}`)).statusCode).toBe(401);
    expect((await loginVia(t, PROXY, '198.51.100.50', DEMO_PASSWORD)).statusCode).toBe(429);
  });
});

describe('TRUST_PROXY values', () => {
  it('accepts true, false, a hop count, and a list of addresses and CIDR ranges', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    const hops = loadConfig({ TRUST_PROXY: '2' }).trustProxy as (address: string, hop: number) => boolean;
    expect([hops('10.0.0.1', 0), hops('10.0.0.1', 1), hops('10.0.0.1', 2)]).toEqual([true, true, false]);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,fd00::/8,loopback' }).trustProxy).toBe(
      '10.0.0.1, 192.168.0.0/16,::1,fd00::/8,loopback',
    );
  });

  it('fails fast on anything else, saying what is expected', () => {
    for (const value of ['yes', '10.0.0.1,nginx', '10.0.0.0/33', '10.0.0.1/8/2']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
    }
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(
      /TRUST_PROXY: must be true, false, a number of proxy hops, or a comma-separated list of proxy addresses or CIDR ranges/,
    );
  });
});
