import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorEnvelope } from '../../contract/envelope';
import { bearer, login, post } from './helpers/fixtures';
import { apiOperations, requestFor, schemaParts, schemaTypes, type OperationInput } from './helpers/openapi-inputs';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

/** zod's own wording ("Invalid input: expected string, received number", "Too big: expected ..."). */
const ZOD_WORDING = /Invalid input|\bexpected\b|\breceived\b|Too big|Too small/i;

type BadValue = [kind: string, value: unknown];

/** Bad values of each kind an input can take, read from its schema in the OpenAPI document. */
function badValues(input: OperationInput): BadValue[] {
  const types = schemaTypes(input.schema);
  const parts = schemaParts(input.schema);
  const bad: BadValue[] = [];
  const fromQuery = input.in !== 'body';
  if (input.required && input.in !== 'path') bad.push(['missing', undefined]);
  if (types.has('integer') || types.has('number')) bad.push(['wrong type', 'many'], ['fraction', fromQuery ? '1.5' : 1.5]);
  if (types.has('boolean')) bad.push(['wrong type', 'yes']);
  if (types.has('string')) {
    // Query values are always text: the wrong type there is a repeated name (a list).
    bad.push(['wrong type', fromQuery ? ['one', 'two'] : 12345]);
    if (!fromQuery) bad.push(['wrong type', { text: 'x' }], ['wrong type', ['x']]);
  }
  for (const part of parts) {
    if (part.maxLength !== undefined) bad.push(['too long', 'x'.repeat(part.maxLength + 1)]);
    if (part.minLength) bad.push(['too short', 'x'.repeat(part.minLength - 1)]);
    if (part.maximum !== undefined) bad.push(['too big', fromQuery ? String(part.maximum + 1) : part.maximum + 1]);
    if (part.minimum !== undefined) bad.push(['too small', fromQuery ? String(part.minimum - 1) : part.minimum - 1]);
    if (part.enum || part.const !== undefined) bad.push(['unknown choice', 'not-a-choice']);
  }
  return bad;
}

/** Validation answers 400 with sentences written for people, never zod's defaults. */
describe(`validation messages (${dbKind})`, () => {
  let t: TestApp;
  let headers: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    headers = bearer((await login(t.app, 'user@demo.local')).access_token);
  });
  afterAll(() => t.close());

  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
    expect(res.statusCode, url).toBe(400);
    return errorEnvelope.parse(res.json());
  };

  it('names a bad page or page size in a sentence, on every paged list', async () => {
    for (const list of ['/chat/conversations', '/chat/conversations/search?query=abc&', '/departments/']) {
      const sep = list.endsWith('&') ? '' : '?';
      for (const page of ['0', '-1', 'two', '1.5']) {
        const body = await get(`${list}${sep}page=${page}`);
        expect(body.detail).toBe('page must be a whole number of 1 or more');
        expect(body.fields).toEqual({ page: 'page must be a whole number of 1 or more' });
      }
      for (const size of ['0', '101', 'ten']) {
        expect((await get(`${list}${sep}page_size=${size}`)).detail).toBe('page_size must be a whole number from 1 to 100');
      }
    }
  });

  it('names each bad field of a body, and a missing body field by its spec sentence', async () => {
    const send = async (payload: object) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/chat/messages', headers, payload });
      expect(res.statusCode).toBe(400);
      return errorEnvelope.parse(res.json());
    };
    const bad = await send({ message: 'hi', reasoning_effort: 'extreme', browsing: 'yes' });
    expect(bad.fields).toEqual({
      browsing: 'browsing must be true or false',
      reasoning_effort: 'reasoning_effort must be low or medium',
    });
    expect((await send({ conversation_id: '', message: 'hi' })).detail).toBe('conversation_id must be an id');

    const missing = await post(t.app, '/auth/reset-password', { token: 'abc' });
    expect(missing.statusCode).toBe(400);
    expect(errorEnvelope.parse(missing.json())).toMatchObject({
      detail: 'Password is required',
      fields: { new_password: 'Password is required' },
    });
  });

  it('refuses a body that is not a JSON object with a sentence', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '[1, 2]',
    });
    expect(res.statusCode).toBe(400);
    expect(errorEnvelope.parse(res.json()).detail).toBe('The request body must be a JSON object');
  });

  it('never answers with zod wording', async () => {
    const bodies = [
      await get('/chat/conversations?page=x&page_size=y'),
      await get('/departments/?paginate=maybe'),
      await get('/chat/conversations/search?query=ab'),
    ];
    for (const body of bodies) {
      for (const sentence of [body.detail, ...Object.values(body.fields ?? {})]) {
        expect(sentence).not.toMatch(/Invalid input|expected \w+, received|Too (small|big)/);
      }
    }
  });

  it("words every bad value of every route in the OpenAPI document as a sentence, never zod's", async () => {
    let refused = 0;
    const check = (where: string, statusCode: number, json: () => unknown, sent?: OperationInput) => {
      expect(statusCode, where).toBeLessThan(500);
      if (statusCode !== 400) return;
      refused++;
      const body = errorEnvelope.parse(json());
      for (const sentence of [body.detail, ...Object.values(body.fields ?? {})]) expect(sentence, where).not.toMatch(ZOD_WORDING);
      // A value that was sent, only of the wrong kind, is never reported as missing.
      if (sent) expect(body.fields?.[sent.name] ?? '', where).not.toMatch(/required|cannot be empty/);
    };
    for (const op of await apiOperations(t.app)) {
      for (const input of op.inputs) {
        for (const [kind, value] of badValues(input)) {
          const values = value === undefined ? {} : { [input.in]: { [input.name]: value } };
          const res = await t.app.inject(requestFor(op, values, headers));
          const sent = kind === 'wrong type' ? input : undefined;
          check(`${op.method} ${op.path} ${input.in}:${input.name} ${kind} ${JSON.stringify(value)}`, res.statusCode, () => res.json(), sent);
        }
      }
      if (!op.inputs.some((input) => input.in === 'body')) continue;
      for (const payload of ['[1]', '"text"', '42', 'true', 'null']) {
        const request = { ...requestFor(op, {}, headers), payload };
        const res = await t.app.inject(request);
        check(`${op.method} ${op.path} body ${payload}`, res.statusCode, () => res.json());
      }
    }
    expect(refused).toBeGreaterThan(40);
  });

  it('words an issue a schema forgot to word, naming the field (the safety net)', () => {
    const unworded = z.object({ count: z.number().int().min(2), kind: z.enum(['a', 'b']), name: z.string().max(3), id: z.string() });
    const result = unworded.safeParse({ count: 'x', kind: 'c', name: 'long' });
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'count must be a number',
      'kind must be one of: a, b',
      'name must have at most 3 characters',
      'id is required',
    ]);
  });

  it('checks the session before the input: no validation details for strangers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/chat/conversations?page=0' });
    expect(res.statusCode).toBe(401);
  });
});
