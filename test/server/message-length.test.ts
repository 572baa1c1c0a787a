import { sql, type Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ReplyStopResult } from '../../contract/chat';
import * as messageLength from '../../server/db/migrations/2026-11-27-02-message-length';
import { insertConversation } from '../../server/db/repositories/conversations';
import { insertMessage, listHistory } from '../../server/db/repositories/messages';
import { HISTORY_CHARS_PER_TOKEN } from '../../server/services/chat/exchange';
import { eventually, startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { DEFAULT_FAKE_REPLY, isTitleRequest, startFakeOpenAi, type FakeOpenAi } from './helpers/fake-openai';
import { readSse } from './helpers/sse';
import { createTestApp, dbKind, type TestApp } from './helpers/test-app';

// Characters outside the BMP (two UTF-16 units each in JavaScript) count once, as SQL's length() counts them.
const WIDE = 'Résumé 😀 naïve 𝄞';
const codePoints = (text: string) => [...text].length;

/** Every message of the conversation: content_length must be the content's length, as JavaScript and SQL count it. */
async function expectLengthsKept(db: TestApp['db'], conversationId: string) {
  const rows = await db
    .selectFrom('messages')
    .select(['seq', 'status', 'content', 'content_length', sql<number>`length(content)`.as('sql_length')])
    .where('conversation_id', '=', conversationId)
    .orderBy('seq')
    .execute();
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    expect({ seq: row.seq, stored: row.content_length }).toEqual({ seq: row.seq, stored: codePoints(row.content) });
    expect(Number(row.sql_length)).toBe(row.content_length);
  }
  return rows;
}

describe(`each message's stored length, kept by every writer (${dbKind})`, () => {
  let s: ChatServer;
  let model: FakeOpenAi;
  beforeAll(async () => {
    model = await startFakeOpenAi();
    s = await startChatServer({ env: { LLM_BASE_URL: model.baseUrl, LLM_API_KEY: 'sk-test-0123456789', LLM_MODEL: 'gpt-4o-mini' } });
  });
  afterEach(() => model.respond(() => ({ kind: 'reply', chunks: DEFAULT_FAKE_REPLY })));
  afterAll(async () => {
    await s?.close();
    await model?.close();
  });

  const slowReply = (chunks: number) =>
    model.respond((r) => (isTitleRequest(r) ? { kind: 'reply', chunks: ['Title'] } : { kind: 'reply', chunks: Array.from({ length: chunks }, (_, i) => ` ${WIDE} ${i}`), chunkDelayMs: 10 }));

  it('after the question and reply are inserted, while the reply streams, when it ends, and when a question is edited', async () => {
    slowReply(40);
    const res = await s.send({ conversation_id: null, message: `First ${WIDE}` });
    const events = readSse(res.body!);
    const control = JSON.parse((await events.next()).value!.data) as { conversation_id: string; message_id: string; user_message_id: string };
    // Inserted: the question, and the reply (empty, streaming).
    await expectLengthsKept(s.db, control.conversation_id);
    // Saved while streaming.
    await eventually(async () => {
      const reply = await s.db.selectFrom('messages').select(['content', 'status']).where('id', '=', control.message_id).executeTakeFirstOrThrow();
      return reply.status === 'streaming' && reply.content.includes('😀');
    });
    await expectLengthsKept(s.db, control.conversation_id);
    for await (const e of { [Symbol.asyncIterator]: () => events }) void e;
    // Finished.
    const finished = await expectLengthsKept(s.db, control.conversation_id);
    expect(finished.at(-1)!.content_length).toBeGreaterThan(40 * codePoints(WIDE));

    // Edited (and answered again).
    slowReply(3);
    const edited = await s.ask({ conversation_id: control.conversation_id, message: `Edited ${WIDE} ${WIDE}`, message_id_to_edit: control.user_message_id });
    expect(edited.done.message_id).toBeDefined();
    const rows = await expectLengthsKept(s.db, control.conversation_id);
    expect(rows[0].content).toBe(`Edited ${WIDE} ${WIDE}`);
  });

  it('when a reply is stopped', async () => {
    slowReply(200);
    const res = await s.send({ conversation_id: null, message: 'Stop me' });
    const events = readSse(res.body!);
    const control = JSON.parse((await events.next()).value!.data) as { conversation_id: string; message_id: string };
    await events.next();
    const stop = await s.api<ReplyStopResult>('POST', `/chat/messages/${control.message_id}/stop`);
    expect(stop.body.data.stopped).toBe(true);
    for await (const e of { [Symbol.asyncIterator]: () => events }) void e;
    const rows = await expectLengthsKept(s.db, control.conversation_id);
    expect(rows[1].content_length).toBeGreaterThan(0);
  });

  it('when a reply a dead writer left is marked interrupted', async () => {
    const conversation = await insertConversation(s.db, { user_id: s.userId, client_id: null, title: 'Left', answering_until: new Date(0).toISOString() });
    await insertMessage(s.db, { conversation_id: conversation.id, user_id: s.userId, sender: 'user', content: 'Question?', status: 'complete' });
    await insertMessage(s.db, { conversation_id: conversation.id, user_id: s.userId, sender: 'Assistant', content: `Half ${WIDE}`, status: 'streaming' });
    const empty = await insertConversation(s.db, { user_id: s.userId, client_id: null, title: 'Empty', answering_until: new Date(0).toISOString() });
    await insertMessage(s.db, { conversation_id: empty.id, user_id: s.userId, sender: 'user', content: 'Question?', status: 'complete' });
    await insertMessage(s.db, { conversation_id: empty.id, user_id: s.userId, sender: 'Assistant', content: '', status: 'streaming' });
    for (const id of [conversation.id, empty.id]) {
      await s.ask({ conversation_id: id, message: 'Again' });
      const rows = await expectLengthsKept(s.db, id);
      expect(rows[1].status).toBe('error');
    }
  });
});

describe(`the message length migration (${dbKind})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('fills in the length of every message already stored', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations take Kysely<any>
    const db = t.db as Kysely<any>;
    const user = await db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    const conversation = await insertConversation(t.db, { user_id: user.id, client_id: null, title: 'Old', answering_until: new Date(0).toISOString() });
    await messageLength.down(db);
    const texts = ['', 'plain', WIDE, 'x'.repeat(5_000)];
    await db
      .insertInto('messages')
      .values(
        texts.map((content, i) => ({
          id: `old-${i}`,
          conversation_id: conversation.id,
          user_id: user.id,
          sender: 'user',
          content,
          status: 'complete',
          seq: i + 1,
          created_at: new Date().toISOString(),
        })),
      )
      .execute();
    await messageLength.up(db);
    const rows = await expectLengthsKept(t.db, conversation.id);
    expect(rows.map((r) => r.content_length)).toEqual(texts.map(codePoints));
  });
});

describe(`the history of a follow-up in a conversation of very long messages (${dbKind})`, () => {
  let s: ChatServer;
  let model: FakeOpenAi;
  const LONG = 100_000;
  let conversationId: string;
  let seqs: { small: number[]; lastLong: number; failed: number };
  beforeAll(async () => {
    model = await startFakeOpenAi();
    s = await startChatServer({ env: { LLM_BASE_URL: model.baseUrl, LLM_API_KEY: 'sk-test-0123456789', LLM_MODEL: 'gpt-4o-mini' } });
    const conversation = await insertConversation(s.db, { user_id: s.userId, client_id: null, title: 'Long', answering_until: new Date(0).toISOString() });
    conversationId = conversation.id;
    const add = (sender: 'user' | 'Assistant', content: string, status: 'complete' | 'error' = 'complete') =>
      insertMessage(s.db, { conversation_id: conversationId, user_id: s.userId, sender, content, status });
    for (let i = 0; i < 200; i++) await add(i % 2 ? 'Assistant' : 'user', `${i} `.padEnd(LONG, 'long text '));
    const small = [(await add('user', 'A short question')).seq, (await add('Assistant', 'A short answer')).seq, (await add('user', 'Another one')).seq];
    // A reply cut off by a crash: never shown to the model, so it takes none of the budget either.
    const failed = (await add('Assistant', 'cut off '.padEnd(LONG, 'x'), 'error')).seq;
    seqs = { small, lastLong: 200, failed };
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await model?.close();
  });

  const history = async (maxChars: number, beforeSeq?: number) => (await listHistory(s.db, conversationId, { limit: 200, maxChars, beforeSeq })).map((m) => m.seq);

  it('reads only the newest messages whose lengths fit the budget, whole texts and oldest first', async () => {
    const smallChars = 'A short question'.length + 'A short answer'.length + 'Another one'.length;
    expect(await history(8_000 * HISTORY_CHARS_PER_TOKEN)).toEqual(seqs.small);
    expect(await history(smallChars)).toEqual(seqs.small);
    expect(await history(smallChars - 1)).toEqual(seqs.small.slice(1));
    expect(await history(smallChars + 2 * LONG)).toEqual([seqs.lastLong - 1, seqs.lastLong, ...seqs.small]);
    // Before an edited question: the messages before it only.
    expect(await history(LONG + 'A short question'.length, seqs.small[1])).toEqual([seqs.lastLong, seqs.small[0]]);
    const rows = await listHistory(s.db, conversationId, { limit: 200, maxChars: smallChars + LONG });
    expect(rows.map((r) => r.content.length)).toEqual([LONG, 'A short question'.length, 'A short answer'.length, 'Another one'.length]);
    // At most `limit` messages.
    expect((await listHistory(s.db, conversationId, { limit: 2, maxChars: 10 * LONG })).map((m) => m.seq)).toEqual(seqs.small.slice(1));
  });

  it('sends the model the history that fits LLM_HISTORY_TOKENS, after a read of only that', async () => {
    model.respond(() => ({ kind: 'reply', chunks: ['Fine.'] }));
    const reply = await s.ask({ conversation_id: conversationId, message: 'And now?' });
    expect(reply.done.stopped).toBe(false);
    const asked = model.requests.filter((r) => !isTitleRequest(r)).at(-1)!;
    expect(asked.body.messages.slice(1).map((m) => m.content)).toEqual(['A short question', 'A short answer', 'Another one', 'And now?']);
  });
});
