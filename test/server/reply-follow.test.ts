import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../contract/envelope';
import { offlineReply } from '../../server/llm/offline';
import { REPLY_NOT_STREAMING } from '../../server/services/chat/reply-follow';
import { login } from './helpers/fixtures';
import { sharedDatabase, type SharedDatabase } from './helpers/job-instances';
import { readSse } from './helpers/sse';
import { dbKind } from './helpers/test-app';

// GET /chat/messages/{id}/stream: following a reply while it is written, on the instance writing it and, with Redis,
// on another one (two instances on one database, as behind a proxy; the machine's Redis with a prefix of this run).

interface Running {
  app: FastifyInstance;
  url: string;
}

async function listening(app: FastifyInstance): Promise<Running> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1` };
}

interface Followed {
  status: number;
  text: string;
  /** performance.now() of each text record. */
  arrivals: number[];
  done: boolean;
  body?: unknown;
}

async function follow(instance: Running, token: string, messageId: string): Promise<Followed> {
  const res = await fetch(`${instance.url}/chat/messages/${messageId}/stream`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) return { status: res.status, text: '', arrivals: [], done: false, body: await res.json() };
  const out: Followed = { status: 200, text: '', arrivals: [], done: false };
  for await (const event of readSse(res.body!)) {
    if (event.event === 'message') {
      out.text += JSON.parse(event.data) as string;
      out.arrivals.push(performance.now());
    }
    if (event.event === 'done') out.done = true;
  }
  return out;
}

/** Starts a reply on `writer` and returns its ids once the first text has arrived; the stream is read to its end. */
async function startReply(writer: Running, token: string, message: string) {
  const res = await fetch(`${writer.url}/chat/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ conversation_id: null, message }),
  });
  expect(res.status).toBe(200);
  const events = readSse(res.body!);
  const control = JSON.parse((await events.next()).value!.data) as { conversation_id: string; message_id: string };
  await events.next();
  const rest = (async () => {
    for await (const _ of events) void _;
  })();
  return { ...control, finished: rest };
}

describe.each([
  ['one instance, no Redis', false],
  ['two instances sharing Redis', true],
] as const)(`following a reply: %s (${dbKind})`, (_name, withRedis) => {
  let shared: SharedDatabase;
  let writer: Running;
  let follower: Running;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    // 130 words 15 ms apart: about 2 s of writing.
    const env: Record<string, string> = { OFFLINE_TOKEN_DELAY_MS: '15' };
    if (withRedis) Object.assign(env, { REDIS_URL: 'redis://127.0.0.1:6379/0', REDIS_PREFIX: `test-${randomBytes(6).toString('hex')}:` });
    shared = await sharedDatabase(env);
    writer = await listening(await shared.instance());
    follower = withRedis ? await listening(await shared.instance()) : writer;
    token = (await login(writer.app, 'user@demo.local')).access_token;
    otherToken = (await login(writer.app, 'newhire@demo.local')).access_token;
  }, 30_000);
  afterAll(() => shared?.close());

  it('gives the text so far and then the rest live, to its end', async () => {
    const question = `Follow me ${withRedis ? 'across' : 'here'}`;
    const reply = await startReply(writer, token, question);
    const followed = await follow(follower, token, reply.message_id);
    await reply.finished;
    expect(followed.status).toBe(200);
    expect(followed.text).toBe(offlineReply(question));
    expect(followed.done).toBe(true);
    // Live, not one piece at the end: the text kept arriving for most of the reply's 2 s.
    expect(followed.arrivals.length).toBeGreaterThan(10);
    expect(followed.arrivals.at(-1)! - followed.arrivals[0]!).toBeGreaterThan(1_000);
  });

  it("refuses a reply that has ended (409) and another person's (404)", async () => {
    const reply = await startReply(writer, token, 'Short lived');
    const other = await follow(follower, otherToken, reply.message_id);
    expect(other.status).toBe(404);
    await reply.finished;
    const ended = await follow(follower, token, reply.message_id);
    expect(ended.status).toBe(409);
    expect(errorEnvelope.parse(ended.body)).toMatchObject({ detail: REPLY_NOT_STREAMING, code: 'reply_not_streaming' });
  });
});

describe(`following on another instance without Redis (${dbKind})`, () => {
  let shared: SharedDatabase;
  afterAll(() => shared?.close());

  it('ends at once without done: the reply is not known there, so the client reads the conversation', async () => {
    shared = await sharedDatabase({ OFFLINE_TOKEN_DELAY_MS: '15' });
    const writer = await listening(await shared.instance());
    const other = await listening(await shared.instance());
    const token = (await login(writer.app, 'user@demo.local')).access_token;
    const reply = await startReply(writer, token, 'Not known over there');
    const started = performance.now();
    const followed = await follow(other, token, reply.message_id);
    expect(followed).toMatchObject({ status: 200, text: '', done: false });
    expect(performance.now() - started).toBeLessThan(1_000);
    await reply.finished;
  });
});
