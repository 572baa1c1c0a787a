import Fastify, { type FastifyServerOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../contract/envelope';
import { ID_MAX_LENGTH } from '../../contract/fields';
import { loggerOptions } from '../../server/http/logger';
import { routerErrorOptions } from '../../server/http/router-errors';
import { bearer, login } from './helpers/fixtures';
import { apiOperations, requestFor, schemaParts, type Operation, type OperationInput } from './helpers/openapi-inputs';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

const LONG_ID = 'a'.repeat(600);

describe(`ids too long to exist (${dbKind})`, () => {
  let t: TestApp;
  /** Tried in turn while the role is refused (403): the role is checked before the input. */
  let roles: Record<string, string>[];
  let operations: Operation[];
  beforeAll(async () => {
    t = await createTestApp();
    roles = [];
    for (const email of ['user@demo.local', 'admin@demo.local', 'super@demo.local']) {
      roles.push(bearer((await login(t.app, email)).access_token));
    }
    operations = await apiOperations(t.app);
  });
  afterAll(() => t.close());

  /** Sends the request as each role until one is let in; the last answer. */
  async function asSomeRole(op: Operation, values: Parameters<typeof requestFor>[1]) {
    let res = await t.app.inject(requestFor(op, values));
    for (const headers of roles) {
      if (res.statusCode !== 401 && res.statusCode !== 403) break;
      res = await t.app.inject(requestFor(op, values, headers));
    }
    return res;
  }

  it('in a path parameter are refused with 400 naming the parameter, on every route and method, never 500', async () => {
    const tried: string[] = [];
    const wrong: string[] = [];
    for (const op of operations) {
      for (const input of op.inputs.filter((i) => i.in === 'path')) {
        const where = `${op.method} ${op.path} ${input.name}`;
        tried.push(where);
        // Without a token too: a protected route refuses before reading the id, a public one reads it.
        const anonymous = await t.app.inject(requestFor(op, { path: { [input.name]: LONG_ID } }));
        if (anonymous.statusCode >= 500) wrong.push(`${where} (no token) -> ${anonymous.statusCode}`);
        const res = await asSomeRole(op, { path: { [input.name]: LONG_ID } });
        const sentence = `${input.name} must be an id of at most ${ID_MAX_LENGTH} characters`;
        const body = res.statusCode === 400 ? errorEnvelope.parse(res.json()) : undefined;
        if (body?.fields?.[input.name] !== sentence) wrong.push(`${where} -> ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
    // The walk reached the routes the issue names (17 non-GET ones among them) and every path-parameter name.
    expect(tried.filter((where) => !where.startsWith('GET ')).length).toBeGreaterThanOrEqual(17);
    for (const name of ['id', 'unitId', 'conversationId', 'shareId', 'key']) {
      expect(tried.some((where) => where.endsWith(` ${name}`)), name).toBe(true);
    }
  });

  it('in a query or body id field are refused with 400 naming the field', async () => {
    const isId = (input: OperationInput) =>
      input.in !== 'path' && /(^|_)id(_|$)/.test(input.name) && schemaParts(input.schema).some((part) => part.maxLength === ID_MAX_LENGTH);
    const names = new Set<string>();
    const wrong: string[] = [];
    let tried = 0;
    for (const op of operations) {
      for (const input of op.inputs.filter(isId)) {
        tried += 1;
        names.add(input.name);
        const res = await asSomeRole(op, { [input.in]: { [input.name]: LONG_ID } });
        const fields = res.statusCode === 400 ? errorEnvelope.parse(res.json()).fields : undefined;
        if (!fields?.[input.name]?.startsWith(`${input.name} must be an id of at most ${ID_MAX_LENGTH} characters`)) {
          wrong.push(`${op.method} ${op.path} ${input.in}:${input.name} -> ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(tried).toBeGreaterThan(5);
    expect([...names]).toEqual(expect.arrayContaining(['conversation_id', 'user_id', 'client_id', 'department_id', 'unit_id']));
  });

  it('a path segment longer than the URL limit is a 414, not a 500', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/departments/${'a'.repeat(9000)}`, headers: roles[1] });
    expect(res.statusCode).toBe(414);
    expect(errorEnvelope.parse(res.json()).detail).toBe('The address (URL) of the request is too long');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe(`a fault on our side (${dbKind})`, () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp({ logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } } });
  });
  afterAll(() => t.close());

  it('answers 500 with the plain sentence and is logged with its stack, secrets still redacted', async () => {
    const { access_token } = await login(t.app, 'user@demo.local');
    // A real fault: the table the route reads is gone.
    await sql`alter table tips rename to tips_gone`.execute(t.db);
    try {
      lines.length = 0;
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/tips/', headers: bearer(access_token) });
      expect(res.statusCode).toBe(500);
      expect(errorEnvelope.parse(res.json()).detail).toBe('Something went wrong on our side. Please try again.');
      expect(res.body).not.toMatch(/tips|stack|sql/i);
    } finally {
      await sql`alter table tips_gone rename to tips`.execute(t.db);
    }
    const entries = lines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: { stack?: string; message?: string } });
    const logged = entries.find((entry) => entry.level >= 50 && entry.err);
    expect(logged, lines.join('\n')).toBeDefined();
    expect(logged!.err!.stack).toMatch(/\n\s+at /);
    expect(logged!.err!.message).toMatch(/tips/);
    expect(lines.join('\n')).not.toContain(access_token);
  });
});

const failingConstraint = {
  name: 'tenant',
  storage: () => {
    const routes = new Map<unknown, unknown>();
    return { get: (key: unknown) => routes.get(key) ?? null, set: (key: unknown, value: unknown) => void routes.set(key, value) };
  },
  deriveConstraint: (_req: unknown, _ctx: unknown, done: (err: Error | null, value?: string) => void) =>
    done(new Error('the tenant directory did not answer')),
  validate: () => undefined,
  mustMatchWhenDerived: false,
};

describe('a fault before any route runs', () => {
  it('answers 500 in the envelope and is logged with its stack', async () => {
    const lines: string[] = [];
    const app = Fastify({
      ...routerErrorOptions,
      logger: loggerOptions('info', { stream: { write: (line: string) => lines.push(line) } }),
      // A routing constraint that fails while the router matches the request: Fastify hands it to frameworkErrors.
      // (Fastify's types know only synchronous constraints; find-my-way takes one with a callback as asynchronous.)
      routerOptions: { constraints: { tenant: failingConstraint } } as unknown as FastifyServerOptions['routerOptions'],
    });
    app.get('/thing', { constraints: { tenant: 'a' } }, async () => 'never');
    try {
      const res = await app.inject({ method: 'GET', url: '/thing', headers: { authorization: 'Bearer secret-token-value' } });
      expect(res.statusCode).toBe(500);
      expect(errorEnvelope.parse(res.json()).detail).toBe('Something went wrong on our side. Please try again.');
      expect(res.headers['cache-control']).toBe('no-store');
      const entries = lines.map((line) => JSON.parse(line) as { level: number; err?: { stack?: string; code?: string } });
      const logged = entries.find((entry) => entry.level >= 50 && entry.err);
      expect(logged, lines.join('\n')).toBeDefined();
      expect(logged!.err!.code).toBe('FST_ERR_ASYNC_CONSTRAINT');
      expect(logged!.err!.stack).toMatch(/\n\s+at /);
      expect(lines.join('\n')).not.toContain('secret-token-value');
    } finally {
      await app.close();
    }
  });
});
