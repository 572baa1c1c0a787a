import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgiveRateLimitHit, hitRateLimit } from '../../server/db/repositories/rate-limits';
import { createSqlRateLimitStore } from '../../server/platform/rate-limit';
import { errorDetail } from './helpers/fixtures';
import { recordingMailer, waitFor } from './helpers/recording-mailer';
import { createTestApp, DEMO_PASSWORD, type TestApp } from './helpers/test-app';

const MINUTE = 60_000;
const RESET_SENT = 'If an account exists for that email, password reset instructions have been sent.';

// Many real sign-ins (argon2 on every one): on a busy 2-core machine a test takes longer than the default 20 s.
describe('rate limits', { timeout: 60_000 }, () => {
  let t: TestApp;
  const mailer = recordingMailer();
  beforeAll(async () => {
    t = await createTestApp({
      mailer,
      env: {
        LOGIN_RATE_LIMIT_PER_IP: '6',
        LOGIN_RATE_LIMIT_PER_IP_EMAIL: '3',
        LOGIN_RATE_LIMIT_PER_EMAIL: '12',
        RESET_RATE_LIMIT_PER_IP: '4',
        RESET_RATE_LIMIT_PER_IP_EMAIL: '2',
      },
    });
  });
  afterAll(() => t.close());

  const loginFrom = (ip: string, email: string, password = 'wrong-password') =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/login', remoteAddress: ip, payload: { email, password } });
  const resetFrom = (ip: string, email: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/request-reset-password', remoteAddress: ip, payload: { email } });

  it("someone else's failed sign-ins never refuse the right password from another address", async () => {
    for (let i = 0; i < 3; i++) expect((await loginFrom('10.0.0.1', 'admin@demo.local')).statusCode).toBe(401);
    const refused = await loginFrom('10.0.0.1', 'admin@demo.local');
    expect(refused.statusCode).toBe(429);
    expect(errorDetail(refused)).toBe('Too many attempts. Please try again in 15 minutes.');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // The address that failed is refused even with the right password...
    expect((await loginFrom('10.0.0.1', 'admin@demo.local', DEMO_PASSWORD)).statusCode).toBe(429);
    // ...the real person elsewhere is not, and the failing address may still sign in to other accounts.
    expect((await loginFrom('10.0.0.2', 'admin@demo.local', DEMO_PASSWORD)).statusCode).toBe(200);
    expect((await loginFrom('10.0.0.1', 'user@demo.local', DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('counts only failures: right passwords never use up the limits', async () => {
    for (let i = 0; i < 8; i++) expect((await loginFrom('10.4.0.1', 'user@demo.local', DEMO_PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await loginFrom('10.4.0.1', 'user@demo.local')).statusCode).toBe(401);
    expect((await loginFrom('10.4.0.1', 'user@demo.local')).statusCode).toBe(429);
  });

  it('limits failures per address across e-mails', async () => {
    for (let i = 0; i < 6; i++) expect((await loginFrom('10.1.1.1', `someone${i}@demo.local`)).statusCode).toBe(401);
    const res = await loginFrom('10.1.1.1', 'newhire@demo.local', DEMO_PASSWORD);
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    expect((await loginFrom('10.1.1.2', 'newhire@demo.local', DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('keeps a per-e-mail ceiling as a last resort against many addresses, with a clear message', async () => {
    for (let ip = 1; ip <= 6; ip++) {
      for (let i = 0; i < 2; i++) expect((await loginFrom(`10.6.0.${ip}`, 'super@demo.local')).statusCode).toBe(401);
    }
    const res = await loginFrom('10.6.1.1', 'super@demo.local', DEMO_PASSWORD);
    expect(res.statusCode).toBe(429);
    expect(errorDetail(res)).toBe(
      'Too many failed sign-ins for this account. Please try again in 15 minutes, or reset your password.',
    );
    expect(res.headers['retry-after']).toBeDefined();
    // A refusal is held only against the counter that refused: this address has all 6 failures left.
    for (let i = 0; i < 6; i++) expect((await loginFrom('10.6.1.1', `other${i}@demo.local`)).statusCode).toBe(401);
  });

  it('answers a reset request over the per-address-and-e-mail limit like any other, but sends nothing', async () => {
    const first = await resetFrom('10.2.0.1', 'user@demo.local');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: 'success', data: { message: RESET_SENT }, message: RESET_SENT });
    expect((await resetFrom('10.2.0.1', 'user@demo.local')).statusCode).toBe(200);
    await waitFor(() => mailer.sent.length === 2);

    const over = await resetFrom('10.2.0.1', 'user@demo.local');
    expect(over.statusCode).toBe(first.statusCode);
    expect(over.body).toBe(first.body);
    expect(over.headers['retry-after']).toBeUndefined();
    // The person asking from elsewhere still gets their mail, and it is the only new one.
    expect((await resetFrom('10.2.0.2', 'user@demo.local')).statusCode).toBe(200);
    await waitFor(() => mailer.sent.length === 3);
    await new Promise((r) => setTimeout(r, 100));
    expect(mailer.sent.map((m) => m.to)).toEqual(['user@demo.local', 'user@demo.local', 'user@demo.local']);
  });

  it('answers a reset request over the per-address limit like any other, but sends nothing', async () => {
    const before = mailer.sent.length;
    for (let i = 0; i < 4; i++) expect((await resetFrom('10.3.0.1', `p${i}@demo.local`)).statusCode).toBe(200);
    const over = await resetFrom('10.3.0.1', 'admin@demo.local');
    expect(over.statusCode).toBe(200);
    expect(over.json()).toEqual({ status: 'success', data: { message: RESET_SENT }, message: RESET_SENT });
    expect((await resetFrom('10.3.0.2', 'newhire@demo.local')).statusCode).toBe(200);
    await waitFor(() => mailer.sent.length === before + 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(mailer.sent.slice(before).map((m) => m.to)).toEqual(['newhire@demo.local']);
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

  it('takes a hit back, never below zero', async () => {
    const now = new Date();
    await hitRateLimit(t.db, 'test:forgive', now, MINUTE);
    await hitRateLimit(t.db, 'test:forgive', now, MINUTE);
    await forgiveRateLimitHit(t.db, 'test:forgive');
    await forgiveRateLimitHit(t.db, 'test:forgive');
    await forgiveRateLimitHit(t.db, 'test:forgive');
    await forgiveRateLimitHit(t.db, 'test:never-hit');
    expect((await hitRateLimit(t.db, 'test:forgive', now, MINUTE)).count).toBe(1);
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
