import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../contract/envelope';
import { securityHeaders } from '../../server/http/security';
import { bearer, login, post } from './helpers/fixtures';
import { createTestApp, DEMO_PASSWORD, type TestApp } from './helpers/test-app';

describe('HTTP basics', () => {
  let t: TestApp;
  const logLines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp({ logger: { level: 'trace', stream: { write: (line: string) => logLines.push(line) } } });
  });
  afterAll(() => t.close());

  it('reports health, reading the database, without authentication', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'success', data: { status: 'ok' } });
  });

  it('answers unknown /api paths with a JSON 404', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/nope'],
      ['POST', '/api/v1/chat/unknown'],
      ['GET', '/api/v2/users/me'],
      ['DELETE', '/api/v1/users/me'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(errorEnvelope.parse(res.json()).detail).toBe('Not found');
    }
  });

  it('sends security headers with a CSP fit for the SPA (no unsafe-eval)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/users/me' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('sends all of helmet\'s headers on every kind of answer, and no X-Powered-By', async () => {
    const { set } = securityHeaders();
    expect(Object.keys(set).length).toBeGreaterThanOrEqual(10);
    const session = await login(t.app, 'user@demo.local');
    for (const [method, url, headers] of [
      ['GET', '/api/v1/users/me', bearer(session.access_token)],
      ['GET', '/api/v1/users/me', {}],
      ['GET', '/api/v1/nope', {}],
      ['GET', '/', {}],
    ] as const) {
      const res = await t.app.inject({ method, url, headers });
      for (const [name, value] of Object.entries(set)) expect(res.headers[name], `${name} on ${method} ${url}`).toBe(value);
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await post(t.app, '/auth/login', { email: 'user@demo.local', password: 'x'.repeat(2 * 1024 * 1024) });
    expect(res.statusCode).toBe(413);
    expect(res.json().status).toBe('error');
  });

  it('never writes passwords, tokens or Authorization headers to the log', async () => {
    const session = await login(t.app, 'user@demo.local');
    await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: bearer(session.access_token) });
    await post(t.app, '/auth/refresh', undefined, bearer(session.refresh_token));
    await post(t.app, '/auth/logout', { refresh_token: session.refresh_token });
    await t.app.inject({ method: 'GET', url: '/reset-password/secret-reset-token-value' });
    // What people type into searches and titles is theirs, not the log's.
    await t.app.inject({ method: 'GET', url: '/api/v1/chat/conversations/search?query=private-search-words&page=1', headers: bearer(session.access_token) });
    await t.app.inject({ method: 'PATCH', url: '/api/v1/chat/conversations/x/rename?title=private-title-words', headers: bearer(session.access_token) });
    const log = logLines.join('\n');
    expect(log).toContain('/api/v1/users/me');
    expect(log).toContain('/api/v1/chat/conversations/search?query=[redacted]&page=1');
    for (const secret of [DEMO_PASSWORD, session.access_token, session.refresh_token, 'secret-reset-token-value', 'private-search-words', 'private-title-words']) {
      expect(log).not.toContain(secret);
    }
    expect(log.toLowerCase()).not.toContain('bearer');
  });

  it('logs each request once, when answered, with its method, address, status and time', async () => {
    const before = logLines.length;
    await t.app.inject({ method: 'GET', url: '/api/v1/health?probe=one-line' });
    type Entry = { msg: string; req?: { url: string }; responseTime?: unknown };
    const lines = logLines.slice(before).map((line) => JSON.parse(line) as Entry).filter((e) => e.req?.url === '/api/v1/health?probe=one-line');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET' }, res: { statusCode: 200 } });
    expect(typeof lines[0]!.responseTime).toBe('number');
  });
});
