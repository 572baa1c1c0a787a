import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationMessages } from '../../contract/chat';
import { errorMarker } from '../../shared/markers';
import { insertConversation } from '../../server/db/repositories/conversations';
import { insertMessage } from '../../server/db/repositories/messages';
import { offlineReply } from '../../server/llm/offline';
import { buildApp } from '../../server/app';
import { finishAbandonedReplies, REPLY_INTERRUPTED, REPLY_SWEEP_MS } from '../../server/services/chat/reply-leases';
import { freshDatabase, type BenchDatabase } from '../bench/bench-database';
import { BENCH_DEMO_PASSWORD, startServer, type BenchServer } from '../bench/server-process';
import { eventually, startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { readSse } from './helpers/sse';
import { dbKind } from './helpers/test-app';

const INTERRUPTED = errorMarker('llm', REPLY_INTERRUPTED);
const QUESTION = 'Explain the travel expense policy step by step';

async function api<T>(server: BenchServer, token: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`${server.url}/api/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data: T; detail?: string } };
}

async function signIn(server: BenchServer): Promise<string> {
  const res = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'user@demo.local', password: BENCH_DEMO_PASSWORD }),
  });
  if (!res.ok) throw new Error(`login answered ${res.status}`);
  return ((await res.json()) as { data: { access_token: string } }).data.access_token;
}

describe(`a server killed mid-reply and started again (${dbKind}, real processes)`, () => {
  let dataDir: string;
  let database: BenchDatabase;
  const servers: BenchServer[] = [];
  // Any free port each time: the restart need not reuse the crashed server's, and a fixed one may be taken.
  const start = async () => {
    const server = await startServer(0, { ...database.env, OFFLINE_TOKEN_DELAY_MS: '40', LOG_LEVEL: 'error' }, { dataDir });
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'tanya-recovery-'));
    database = await freshDatabase(dbKind === 'postgres' ? process.env.TEST_DATABASE_URL : undefined);
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  });

  it('keeps the partial reply, marks it interrupted, and accepts a send to the conversation at once', async () => {
    const first = await start();
    const token = await signIn(first);
    const res = await fetch(`${first.url}/api/v1/chat/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ conversation_id: null, message: QUESTION }),
    });
    expect(res.status).toBe(200);
    const events = readSse(res.body!);
    const control = JSON.parse((await events.next()).value!.data) as { conversation_id: string; message_id: string };
    const messagesUrl = `/chat/conversations/${control.conversation_id}/messages`;

    // Mid-reply: some of it is saved, the rest not written yet.
    const partial = await eventually(async () => {
      const reply = (await api<ConversationMessages>(first, token, 'GET', messagesUrl)).body.data.messages[1];
      return reply.content.length > 40 && reply;
    });
    expect(partial.status).toBe('streaming');
    await first.crash();
    await events.return(undefined).catch(() => undefined);

    const second = await start();
    const token2 = await signIn(second);
    const { messages } = (await api<ConversationMessages>(second, token2, 'GET', messagesUrl)).body.data;
    const reply = messages[1];
    expect(reply.id).toBe(control.message_id);
    expect(reply.status).toBe('error');
    expect(reply.content.endsWith(`\n\n${INTERRUPTED}`)).toBe(true);
    const kept = reply.content.slice(0, -`\n\n${INTERRUPTED}`.length);
    expect(kept.startsWith(partial.content)).toBe(true);
    expect(offlineReply(QUESTION).startsWith(kept)).toBe(true);
    expect(kept.length).toBeLessThan(offlineReply(QUESTION).length);

    // The conversation is free right away: no 409 for the minutes a dead writer's lease used to last.
    const sentAt = Date.now();
    const next = await fetch(`${second.url}/api/v1/chat/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token2}`, 'content-type': 'application/json' },
      body: JSON.stringify({ conversation_id: control.conversation_id, message: 'Please try again' }),
    });
    expect(next.status).toBe(200);
    expect(Date.now() - sentAt).toBeLessThan(5_000);
    let last = '';
    for await (const e of readSse(next.body!)) last = e.event;
    expect(last).toBe('done');
  }, 90_000);
});

describe(`the sweep of replies whose writer stopped (${dbKind})`, () => {
  let s: ChatServer;
  beforeAll(async () => {
    s = await startChatServer();
  });
  afterAll(() => s.close());

  /** A conversation whose reply is half-written and still 'streaming', its lease held by `owner` until `until`. */
  const halfWritten = async (owner: string, until: string) => {
    const conversation = await insertConversation(s.db, {
      user_id: s.userId,
      client_id: null,
      title: 'Half written',
      answering_until: until,
      answering_owner: owner,
    });
    await insertMessage(s.db, { conversation_id: conversation.id, user_id: s.userId, sender: 'user', content: 'Question?', status: 'complete' });
    const reply = await insertMessage(s.db, {
      conversation_id: conversation.id,
      user_id: s.userId,
      sender: 'Assistant',
      content: 'The first half of',
      status: 'streaming',
    });
    return { conversationId: conversation.id, replyId: reply.id };
  };
  const replyOf = async (conversationId: string) =>
    (await s.api<ConversationMessages>('GET', `/chat/conversations/${conversationId}/messages`)).body.data.messages[1];

  it("ends a reply whose lease ran out (another instance died) within the sweep's interval, and frees the conversation", async () => {
    const past = new Date(Date.now() - 1_000).toISOString();
    const future = new Date(Date.now() + 60_000).toISOString();
    const expired = await halfWritten('other-host/4242/instance-a/lease-1', past);
    // Another host's writer whose lease is current is alive as far as anyone here can tell: left alone.
    const alive = await halfWritten('other-host/4242/instance-a/lease-2', future);

    // The server's upkeep (a repeating job) on a second instance of the same database, looking for due jobs
    // often enough that its claim adds nothing to the sweep's interval.
    const sweeper = await buildApp({ config: s.config, db: s.db, logger: false, maintenance: true, jobs: { pollMs: 25 } });
    await sweeper.ready();
    try {
      const startedAt = Date.now();
      const ended = await eventually(async () => {
        const reply = await replyOf(expired.conversationId);
        return reply.status !== 'streaming' && reply;
      }, REPLY_SWEEP_MS + 2_000);
      expect(Date.now() - startedAt).toBeLessThanOrEqual(REPLY_SWEEP_MS + 1_000);
      expect(ended).toMatchObject({ id: expired.replyId, status: 'error', content: `The first half of\n\n${INTERRUPTED}` });
      expect(await replyOf(alive.conversationId)).toMatchObject({ status: 'streaming', content: 'The first half of' });
    } finally {
      await sweeper.close();
    }

    const next = await s.ask({ conversation_id: expired.conversationId, message: 'Again please' });
    expect(next.errors).toEqual([]);
    const busy = await s.api('POST', '/chat/messages', { body: { conversation_id: alive.conversationId, message: 'Hello?' } });
    expect(busy.status).toBe(409);
  });

  it('ends at once a reply whose writer ran on this host in a process that has exited, though its lease is current', async () => {
    const exited = spawnSync(process.execPath, ['-e', '0']).pid;
    const future = new Date(Date.now() + 60_000).toISOString();
    const orphan = await halfWritten(`${hostname()}/${exited}/instance-b/lease-3`, future);

    expect(await finishAbandonedReplies(s.db)).toBe(1);
    expect(await replyOf(orphan.conversationId)).toMatchObject({ status: 'error', content: `The first half of\n\n${INTERRUPTED}` });
    const next = await s.ask({ conversation_id: orphan.conversationId, message: 'Again please' });
    expect(next.errors).toEqual([]);
  });
});
