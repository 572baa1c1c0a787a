import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hitRateLimit } from '../../server/db/repositories/rate-limits';
import { createSqlRateLimitStore } from '../../server/services/rate-limit';
import { errorDetail } from './helpers/fixtures';
import { createTestApp, DEMO_PASSWORD, type TestApp } from './helpers/test-app';

const MINUTE = 60_000;

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        LOGIN_RATE_LIMIT_PER_IP: '5',
        LOGIN_RATE_LIMIT_PER_EMAIL: '3',
        RESET_RATE_LIMIT_PER_IP: '4',
        RESET_RATE_LIMIT_PER_EMAIL: '2',
      },
    });
  });
  afterAll(() => t.close());

  const loginFrom = (ip: string, email: string, password = 'wrong-password') =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/login', remoteAddress: ip, payload: { email, password } });

  it('limits login attempts per email: 429 with Retry-After, even with the right password', async () => {
    for (let i = 0; i < 3; i++) expect((await loginFrom(`10.0.0.${i + 1}`, 'admin@demo.local')).statusCode).toBe(401);
    const res = await loginFrom('10.0.0.9', 'admin@demo.local', DEMO_PASSWORD);
    expect(res.statusCode).toBe(429);
    expect(errorDetail(res)).toMatch(/^Too many attempts\. Please try again in 15 minutes\.$/);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Other accounts are unaffected.
    expect((await loginFrom('10.0.0.9', 'user@demo.local', DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('limits login attempts per IP across emails', async () => {
    for (let i = 0; i < 5; i++) expect((await loginFrom('10.1.1.1', `someone${i}@demo.local`)).statusCode).toBe(401);
    const res = await loginFrom('10.1.1.1', 'newhire@demo.local', DEMO_PASSWORD);
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });

  it('limits reset requests per email and per IP', async () => {
    const reset = (ip: string, email: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/auth/request-reset-password', remoteAddress: ip, payload: { email } });
    expect((await reset('10.2.0.1', 'ghost@demo.local')).statusCode).toBe(200);
    expect((await reset('10.2.0.2', 'ghost@demo.local')).statusCode).toBe(200);
    const perEmail = await reset('10.2.0.3', 'ghost@demo.local');
    expect(perEmail.statusCode).toBe(429);
    expect(errorDetail(perEmail)).toBe('Too many attempts. Please try again in 60 minutes.');

    for (let i = 0; i < 4; i++) expect((await reset('10.3.0.1', `p${i}@demo.local`)).statusCode).toBe(200);
    expect((await reset('10.3.0.1', 'p9@demo.local')).statusCode).toBe(429);
  });

  it('counts atomically in the database and restarts the window once it has passed', async () => {
    const start = new Date('2026-01-01T00:00:00.000Z');
    const at = (ms: number) => new Date(start.getTime() + ms);
    expect(await hitRateLimit(t.db, 'test:key', at(0), MINUTE)).toEqual({ count: 1, windowStart: start.toISOString() });
    expect((await hitRateLimit(t.db, 'test:key', at(30_000), MINUTE)).count).toBe(2);
    const results = await Promise.all(Array.from({ length: 5 }, () => hitRateLimit(t.db, 'test:key', at(40_000), MINUTE)));
    expect(results.map((r) => r.count).sort()).toEqual([3, 4, 5, 6, 7]);
    expect(await hitRateLimit(t.db, 'test:key', at(MINUTE + 1), MINUTE)).toEqual({
      count: 1,
      windowStart: at(MINUTE + 1).toISOString(),
    });
  });

  it('reports when the window resets through the store interface', async () => {
    const store = createSqlRateLimitStore(t.db);
    const before = Date.now();
    const { count, resetAt } = await store.hit('test:store', MINUTE);
    expect(count).toBe(1);
    expect(resetAt.getTime()).toBeGreaterThanOrEqual(before + MINUTE);
    expect(resetAt.getTime()).toBeLessThanOrEqual(Date.now() + MINUTE);
  });
});
