import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationMessages, ReplyStopResult } from '../../contract/chat';
import { offlineReply } from '../../server/llm/offline';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { DEFAULT_FAKE_REPLY, isTitleRequest, startFakeOpenAi, type FakeOpenAi } from './helpers/fake-openai';
import { readSse, type SseEvent } from './helpers/sse';
import { dbKind } from './helpers/test-app';

const stopPath = (id: string) => `/chat/messages/${id}/stop`;

/**
 * Starts a send and reads its stream until `deltas` deltas arrived; the rest of the stream is read on demand.
 * The stream is the client's: a stop ends it with `done` like a finished reply.
 */
async function startReply(s: ChatServer, conversationId: string | null, message: string, deltas: number) {
  const res = await s.send({ conversation_id: conversationId, message });
  expect(res.status).toBe(200);
  const events = readSse(res.body!);
  const control = JSON.parse((await events.next()).value!.data) as { conversation_id: string; message_id: string };
  const seen: string[] = [];
  while (seen.length < deltas) {
    const next = await events.next();
    if (next.done || next.value.event !== 'message') throw new Error('the reply ended before it could be stopped');
    seen.push(JSON.parse(next.value.data) as string);
  }
  return {
    control,
    seen,
    async rest(): Promise<SseEvent[]> {
      const out: SseEvent[] = [];
      for await (const e of { [Symbol.asyncIterator]: () => events }) out.push(e);
      return out;
    },
  };
}

const savedMessages = async (s: ChatServer, conversationId: string) =>
  (await s.api<ConversationMessages>('GET', `/chat/conversations/${conversationId}/messages`)).body.data.messages;

describe(`POST /chat/messages/{id}/stop with the offline responder (${dbKind})`, () => {
  let s: ChatServer;
  beforeAll(async () => {
    // Slow enough that the reply is still being written when the test asks to stop it.
    s = await startChatServer({ env: { OFFLINE_TOKEN_DELAY_MS: '15' } });
  });
  afterAll(() => s.close());

  it('ends the reply with the text so far, marks it stopped, and frees the conversation at once', async () => {
    const question = 'Explain our travel policy in detail';
    const reply = await startReply(s, null, question, 3);
    const stop = await s.api<ReplyStopResult>('POST', stopPath(reply.control.message_id));
    expect(stop.status).toBe(200);
    expect(stop.body.data).toEqual({ message_id: reply.control.message_id, stopped: true });

    // The stream ends as usual: no error, `done` says stopped.
    const rest = await reply.rest();
    expect(rest.at(-1)!.event).toBe('done');
    expect(rest.some((e) => e.event === 'error')).toBe(false);
    expect(JSON.parse(rest.at(-1)!.data)).toMatchObject({ message_id: reply.control.message_id, stopped: true });
    const text = [...reply.seen, ...rest.slice(0, -1).map((e) => JSON.parse(e.data) as string)].join('');
    const full = offlineReply(question);
    expect(text.length).toBeLessThan(full.length);
    expect(full.startsWith(text)).toBe(true);

    // Saved as it was streamed; the answer of the stop came after the save, so the next question is taken now.
    const [, saved] = await savedMessages(s, reply.control.conversation_id);
    expect(saved).toMatchObject({ id: reply.control.message_id, status: 'complete', stopped: true, content: text });
    const next = await s.ask({ conversation_id: reply.control.conversation_id, message: 'Shorter, please' });
    expect(next.done.stopped).toBe(false);
    const after = await savedMessages(s, reply.control.conversation_id);
    expect(after.map((m) => [m.sender, m.status, m.stopped])).toEqual([
      ['user', 'complete', false],
      ['Assistant', 'complete', true],
      ['user', 'complete', false],
      ['Assistant', 'complete', false],
    ]);
  });

  it('answers stopped false for a reply that had already ended, and leaves it as it was', async () => {
    const done = await s.ask({ conversation_id: null, message: 'A short one' });
    const stop = await s.api<ReplyStopResult>('POST', stopPath(done.control.message_id));
    expect(stop.status).toBe(200);
    expect(stop.body.data).toEqual({ message_id: done.control.message_id, stopped: false });
    const [, saved] = await savedMessages(s, done.control.conversation_id);
    expect(saved).toMatchObject({ status: 'complete', stopped: false, content: done.text });
  });

  it("refuses another user's reply, a question and an unknown id with 404, and the reply goes on", async () => {
    const reply = await startReply(s, null, 'Tell me about onboarding', 1);
    const other = await s.api('POST', stopPath(reply.control.message_id), { token: s.otherToken });
    expect(other.status).toBe(404);
    expect(other.body.detail).toBe('Message not found');
    const messages = await savedMessages(s, reply.control.conversation_id);
    const question = messages.find((m) => m.sender === 'user')!;
    expect((await s.api('POST', stopPath(question.id))).status).toBe(404);
    expect((await s.api('POST', stopPath('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
    expect((await s.api('POST', stopPath('not-an-id'))).status).toBe(404);

    const rest = await reply.rest();
    expect(JSON.parse(rest.at(-1)!.data)).toMatchObject({ stopped: false });
    const [, saved] = await savedMessages(s, reply.control.conversation_id);
    expect(saved).toMatchObject({ status: 'complete', stopped: false, content: offlineReply('Tell me about onboarding') });
  });

  it('needs a signed-in person', async () => {
    const res = await fetch(`${s.apiUrl}${stopPath('00000000-0000-4000-8000-000000000000')}`, { method: 'POST' });
    expect(res.status).toBe(401);
  });
});

describe(`stopping a reply of an OpenAI-compatible model (${dbKind})`, () => {
  let s: ChatServer;
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    s = await startChatServer({ env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'gpt-4o-mini' } });
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });

  it('cancels the model call: the reply ends with the chunks written before the stop', async () => {
    // 200 chunks, 100 ms apart: only a cancelled call ends before the test's time limit.
    const chunks = Array.from({ length: 200 }, (_, i) => `w${i} `);
    fake.respond((r) => (isTitleRequest(r) ? { kind: 'reply', chunks: DEFAULT_FAKE_REPLY } : { kind: 'reply', chunks, chunkDelayMs: 100 }));
    const reply = await startReply(s, null, 'Write a long story', 2);
    const stop = await s.api<ReplyStopResult>('POST', stopPath(reply.control.message_id));
    expect(stop.body.data.stopped).toBe(true);
    const rest = await reply.rest();
    const text = [...reply.seen, ...rest.slice(0, -1).map((e) => JSON.parse(e.data) as string)].join('');
    expect(text.startsWith('w0 w1 ')).toBe(true);
    expect(text.length).toBeLessThan(chunks.join('').length / 4);
    const [, saved] = await savedMessages(s, reply.control.conversation_id);
    expect(saved).toMatchObject({ status: 'complete', stopped: true, content: text });
    // What was written was spent: the usage log has the call with the partial reply's tokens.
    const usage = await s.db.selectFrom('usage_logs').selectAll().where('message_id', '=', reply.control.message_id).where('purpose', '=', 'reply').execute();
    expect(usage).toHaveLength(1);
    expect(Number(usage[0].completion_tokens)).toBeGreaterThan(0);
  });
});
