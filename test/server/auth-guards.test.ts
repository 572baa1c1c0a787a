import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthGuards, currentUser } from '../../server/http/auth';
import { installErrorHandler } from '../../server/http/errors';
import { createTokenService } from '../../server/services/identity/tokens';
import { bearer, errorDetail, login } from './helpers/fixtures';
import { createTestApp, type TestApp } from './helpers/test-app';

describe('requireRole', () => {
  let t: TestApp;
  let probe: FastifyInstance;
  beforeAll(async () => {
    t = await createTestApp();
    const guards = createAuthGuards(t.db, createTokenService(t.config.jwtSecret!, t.config.accessTokenTtlSeconds));
    probe = Fastify();
    probe.decorateRequest('auth', null);
    installErrorHandler(probe);
    probe.get('/admin-or-super', { preHandler: guards.requireRole('admin', 'superuser') }, async (request) => ({
      email: currentUser(request).email,
    }));
    await probe.ready();
  });
  afterAll(async () => {
    await probe.close();
    await t.close();
  });

  const call = (headers: Record<string, string>) => probe.inject({ method: 'GET', url: '/admin-or-super', headers });

  it('lets the listed roles through with the user loaded from the database', async () => {
    for (const email of ['admin@demo.local', 'super@demo.local']) {
      const res = await call(bearer((await login(t.app, email)).access_token));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ email });
    }
  });

  it('answers 403 for another role and 401 without a token', async () => {
    const user = await call(bearer((await login(t.app, 'user@demo.local')).access_token));
    expect(user.statusCode).toBe(403);
    expect(user.json().status).toBe('error');
    const anon = await call({});
    expect(anon.statusCode).toBe(401);
    expect(errorDetail(anon)).toBe('Not authenticated');
  });
});
