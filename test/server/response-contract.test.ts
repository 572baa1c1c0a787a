import Fastify, { type FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { successEnvelope } from '../../contract/envelope';
import { user } from '../../contract/user';
import { installErrorHandler } from '../../server/http/errors';
import { ok } from '../../server/http/reply';
import { installContractValidation } from '../../server/http/validation';

/** A route declaring the contract's user as its response, handed a database row with secrets in it. */
describe('responses go through their contract schema', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    installErrorHandler(app);
    installContractValidation(app);
    app.withTypeProvider<ZodTypeProvider>().get('/leaky', { schema: { response: { 200: successEnvelope(user) } } }, async () => {
      const row = {
        id: 'u1',
        name: 'Nur',
        email: 'nur@example.com',
        role: 'user' as const,
        status: 'active' as const,
        verified: true,
        package_name: 'free',
        image_url: null,
        department_id: null,
        unit_id: null,
        client_id: 'c1',
        features: ['browsing' as const],
        password_hash: '$argon2id$secret',
      };
      return ok(row);
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('strips every key the contract does not name (a stray password_hash never leaves)', async () => {
    const res = await app.inject({ method: 'GET', url: '/leaky' });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('password_hash');
    expect(res.body).not.toContain('argon2');
    expect(successEnvelope(user).strict().parse(res.json()).data.email).toBe('nur@example.com');
  });
});
