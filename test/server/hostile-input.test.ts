import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../contract/envelope';
import { bearer, login } from './helpers/fixtures';
import { apiOperations, requestFor, schemaTypes, type Operation } from './helpers/openapi-inputs';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

const WITH_NUL = 'a\u0000b';

/** PostgreSQL cannot store U+0000 in text; every input is refused at validation, on both databases. */
describe(`a NUL character in any input (${dbKind})`, () => {
  let t: TestApp;
  let headers: Record<string, string>;
  /** For the routes of a role a user does not have: the role is checked before the input. */
  let adminHeaders: Record<string, string>;
  let superuserHeaders: Record<string, string>;
  let operations: Operation[];
  beforeAll(async () => {
    t = await createTestApp();
    headers = bearer((await login(t.app, 'user@demo.local')).access_token);
    adminHeaders = bearer((await login(t.app, 'admin@demo.local')).access_token);
    superuserHeaders = bearer((await login(t.app, 'super@demo.local')).access_token);
    operations = await apiOperations(t.app);
  });
  afterAll(() => t.close());

  it('is refused with 400 naming the field, for every text input of every route in the OpenAPI document', async () => {
    const tried: string[] = [];
    const wrong: string[] = [];
    for (const op of operations) {
      for (const input of op.inputs.filter((i) => schemaTypes(i.schema).has('string'))) {
        const where = `${op.method} ${op.path} ${input.in}:${input.name}`;
        tried.push(`${input.in}:${input.name}`);
        const request = (as: Record<string, string>) => t.app.inject(requestFor(op, { [input.in]: { [input.name]: WITH_NUL } }, as));
        let res = await request(headers);
        if (res.statusCode === 403) res = await request(adminHeaders);
        if (res.statusCode === 403) res = await request(superuserHeaders);
        const sentence = `${input.name} must not contain a NUL character`;
        const body = res.statusCode === 400 ? errorEnvelope.parse(res.json()) : undefined;
        if (body?.detail !== sentence || body.fields?.[input.name] !== sentence) wrong.push(`${where} -> ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    // Every case at once: which inputs still let a NUL through (and which of them make a 500) is the useful picture.
    expect(wrong).toEqual([]);
    // The walk reached the inputs the issue names: ids, message, title, search, department, e-mail, password.
    expect(tried).toEqual(
      expect.arrayContaining([
        'path:id',
        'body:message',
        'body:conversation_id',
        'query:title',
        'query:search',
        'query:query',
        'body:department_id',
        'body:email',
        'body:password',
        'body:token',
      ]),
    );
  });

  it('is refused wherever it hides: deep in the body, in a key, or beside valid fields', async () => {
    const send = (payload: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/chat/messages', headers: { ...headers, 'content-type': 'application/json' }, payload });

    const beside = await send(JSON.stringify({ message: 'Hello', reasoning_effort: 'low', conversation_id: WITH_NUL }));
    expect(beside.statusCode).toBe(400);
    expect(errorEnvelope.parse(beside.json()).fields).toEqual({ conversation_id: 'conversation_id must not contain a NUL character' });

    const inKey = await send(JSON.stringify({ message: 'Hello', [WITH_NUL]: 'x' }));
    expect(inKey.statusCode).toBe(400);
    expect(errorEnvelope.parse(inKey.json()).detail).toBe('The request must not contain a NUL character');

    const nested = await send(JSON.stringify({ message: [{ text: ['fine', WITH_NUL] }] }));
    expect(nested.statusCode).toBe(400);
    expect(errorEnvelope.parse(nested.json()).fields).toEqual({ 'message.0.text.1': 'message.0.text.1 must not contain a NUL character' });

    // Nested deeper than any call stack: the check walks it without recursion, so this is a 400, not a 500.
    const depth = 200_000;
    const deep = await send(`{"message":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    expect(deep.statusCode).toBe(400);
    expect(errorEnvelope.parse(deep.json()).fields).toHaveProperty('message');
  });
});
