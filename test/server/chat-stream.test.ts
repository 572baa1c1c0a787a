import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConversationList, type ConversationMessages } from '../../contract/chat';
import { CONVERSATION_BUSY, MESSAGE_EMPTY, MESSAGE_MAX_LENGTH, MESSAGE_TOO_LONG } from '../../contract/chat-constants';
import { offlineReply } from '../../server/llm/offline';
import { eventually, startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { readSse } from './helpers/sse';
import { dbKind } from './helpers/test-app';

const messagesOf = async (s: ChatServer, id: string) => (await s.api<ConversationMessages>('GET', `/chat/conversations/${id}/messages`)).body.data;

describe(`POST /chat/messages with the offline responder (${dbKind})`, () => {
  let s: ChatServer;
  beforeAll(async () => {
    s = await startChatServer();
  });
  afterAll(() => s.close());

  it('streams the control record first, then the deltas, then done with usage; and saves both messages', async () => {
    const res = await s.send({ conversation_id: null, message: 'How do I reset my VPN token?' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    // Compression would buffer the stream: it is sent as is, whatever the client accepts.
    expect(res.headers.get('content-encoding')).toBeNull();
    // The app's security headers survive the hijacked response.
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');

    const events = [];
    for await (const e of readSse(res.body!)) events.push(e);
    expect(events[0].event).toBe('message');
    const control = JSON.parse(events[0].data);
    expect(control).toEqual({ conversation_id: expect.any(String), message_id: expect.any(String), user_message_id: expect.any(String) });
    expect(events.at(-1)!.event).toBe('done');
    const deltas = events.slice(1, -1);
    expect(deltas.length).toBeGreaterThan(10);
    expect(deltas.every((e) => e.event === 'message')).toBe(true);
    const text = deltas.map((e) => JSON.parse(e.data) as string).join('');
    expect(text).toBe(offlineReply('How do I reset my VPN token?'));
    expect(text).toContain("Tanya's offline demo responder");
    expect(text).toContain('LLM_MODEL');

    const done = JSON.parse(events.at(-1)!.data);
    expect(done.message_id).toBe(control.message_id);
    expect(done.usage.prompt_tokens).toBeGreaterThan(0);
    expect(done.usage.completion_tokens).toBeGreaterThan(0);

    const saved = await messagesOf(s, control.conversation_id);
    expect(saved.conversation).toMatchObject({ id: control.conversation_id });
    expect(saved.messages.map((m) => [m.id, m.sender, m.status])).toEqual([
      [control.user_message_id, 'user', 'complete'],
      [control.message_id, 'Assistant', 'complete'],
    ]);
    expect(saved.messages[0].content).toBe('How do I reset my VPN token?');
    expect(saved.messages[1].content).toBe(text);

    // A conversation's JSON, on the other hand, is compressed for clients that accept it.
    const raw = await fetch(`${s.apiUrl}/chat/conversations/${control.conversation_id}/messages`, {
      headers: { authorization: `Bearer ${s.token}`, 'accept-encoding': 'gzip' },
    });
    expect(raw.headers.get('content-encoding')).toBe('gzip');
    expect((await raw.json()).data.messages).toHaveLength(2);
  });

  it('continues an existing conversation and keeps the order', async () => {
    const first = await s.ask({ conversation_id: null, message: 'first question' });
    const second = await s.ask({ conversation_id: first.control.conversation_id, message: 'second question' });
    expect(second.control.conversation_id).toBe(first.control.conversation_id);
    const { messages } = await messagesOf(s, first.control.conversation_id);
    expect(messages.map((m) => [m.sender, m.content.slice(0, 15)])).toEqual([
      ['user', 'first question'],
      ['Assistant', offlineReply('first question').slice(0, 15)],
      ['user', 'second question'],
      ['Assistant', offlineReply('second question').slice(0, 15)],
    ]);
  });

  it('refuses empty, whitespace-only and over-long messages with 400 before any stream', async () => {
    const count = async () => (await s.api<ConversationList>('GET', '/chat/conversations')).body.data.total;
    const before = await count();
    for (const message of ['', '   \n\t ']) {
      const res = await s.api('POST', '/chat/messages', { body: { conversation_id: null, message } });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(MESSAGE_EMPTY);
    }
    const missing = await s.api('POST', '/chat/messages', { body: { conversation_id: null } });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toBe(MESSAGE_EMPTY);
    const long = await s.api('POST', '/chat/messages', { body: { message: 'x'.repeat(MESSAGE_MAX_LENGTH + 1) } });
    expect(long.status).toBe(400);
    expect(long.body.detail).toBe(MESSAGE_TOO_LONG);
    const bad = await s.api('POST', '/chat/messages', { body: { message: 'hi', reasoning_effort: 'extreme' } });
    expect(bad.status).toBe(400);
    // The refused sends created nothing.
    expect(await count()).toBe(before);
    const anon = await fetch(`${s.apiUrl}/chat/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"message":"hi"}' });
    expect(anon.status).toBe(401);
  });

  it('edits a user message: replaces it, drops every later message, answers again', async () => {
    const a = await s.ask({ conversation_id: null, message: 'original question' });
    const id = a.control.conversation_id;
    const b = await s.ask({ conversation_id: id, message: 'follow-up one' });
    await s.ask({ conversation_id: id, message: 'follow-up two' });
    expect((await messagesOf(s, id)).messages).toHaveLength(6);

    const edited = await s.ask({ conversation_id: id, message: 'follow-up one, reworded', message_id_to_edit: b.control.user_message_id });
    expect(edited.control.user_message_id).toBe(b.control.user_message_id);
    expect(edited.text).toBe(offlineReply('follow-up one, reworded'));
    const { messages } = await messagesOf(s, id);
    expect(messages.map((m) => [m.id, m.content])).toEqual([
      [a.control.user_message_id, 'original question'],
      [a.control.message_id, offlineReply('original question')],
      [b.control.user_message_id, 'follow-up one, reworded'],
      [edited.control.message_id, offlineReply('follow-up one, reworded')],
    ]);
  });

  it('refuses to edit an assistant message or a message of another conversation (404 Message not found)', async () => {
    const a = await s.ask({ conversation_id: null, message: 'one' });
    const b = await s.ask({ conversation_id: null, message: 'two' });
    for (const [conversation, message] of [
      [a.control.conversation_id, a.control.message_id],
      [a.control.conversation_id, b.control.user_message_id],
      [a.control.conversation_id, 'no-such-message'],
      [null, a.control.user_message_id],
    ]) {
      const res = await s.api('POST', '/chat/messages', { body: { conversation_id: conversation, message: 'edit', message_id_to_edit: message } });
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe('Message not found');
    }
    // The refused edits left the conversation as it was and free for the next send.
    expect((await messagesOf(s, a.control.conversation_id)).messages).toHaveLength(2);
    const next = await s.ask({ conversation_id: a.control.conversation_id, message: 'three' });
    expect(next.errors).toEqual([]);
  });

  it('names the conversation after the whole question after the first exchange', async () => {
    const a = await s.ask({ conversation_id: null, message: 'Please  summarise the quarterly   finance report for the board' });
    const short = await s.ask({ conversation_id: null, message: 'Leave policy?' });
    const titleOf = async (id: string) => {
      const list = await s.api<ConversationList>('GET', '/chat/conversations', { query: { page_size: 100 } });
      return list.body.data.conversations.find((c) => c.id === id)?.title;
    };
    expect(await eventually(async () => (await titleOf(a.control.conversation_id)) !== 'New Conversation' && titleOf(a.control.conversation_id))).toBe(
      'Please summarise the quarterly finance report for the board',
    );
    expect(await eventually(async () => (await titleOf(short.control.conversation_id)) !== 'New Conversation' && titleOf(short.control.conversation_id))).toBe(
      'Leave policy?',
    );
  });

  it('does not rename a conversation the user renamed first', async () => {
    const slow = await startChatServer({ env: { OFFLINE_TOKEN_DELAY_MS: '2' } });
    try {
      const res = await slow.send({ conversation_id: null, message: 'what is the travel allowance' });
      const events = readSse(res.body!);
      const control = JSON.parse((await events.next()).value!.data);
      const renamed = await slow.api('PATCH', `/chat/conversations/${control.conversation_id}/rename`, { query: { title: 'Travel' } });
      expect(renamed.status).toBe(200);
      for await (const e of events) if (e.event === 'done') break;
      await slow.app.close(); // waits for background work such as the title job
      const row = await slow.db.selectFrom('conversations').select('title').where('id', '=', control.conversation_id).executeTakeFirstOrThrow();
      expect(row.title).toBe('Travel');
    } finally {
      await slow.close();
    }
  });
});

describe(`replies that outlive their request (${dbKind})`, () => {
  let s: ChatServer;
  beforeAll(async () => {
    // Slow enough that the client can leave mid-reply and a second send arrives while answering.
    s = await startChatServer({ env: { OFFLINE_TOKEN_DELAY_MS: '4' } });
  });
  afterAll(() => s.close());

  it('finishes and saves the whole reply after the client disconnects mid-stream', async () => {
    const question = 'Explain our expense policy';
    const abort = new AbortController();
    const res = await s.send({ conversation_id: null, message: question }, { signal: abort.signal });
    const events = readSse(res.body!);
    const control = JSON.parse((await events.next()).value!.data);
    const firstDelta = (await events.next()).value!;
    expect(firstDelta.event).toBe('message');
    abort.abort();
    await events.return(undefined).catch(() => undefined);

    // After the disconnect the reply goes on being written, and saved as it grows...
    const partial = await eventually(async () => {
      const { messages } = await messagesOf(s, control.conversation_id);
      return messages[1].content.length > 0 && messages[1];
    });
    expect(partial.status).toBe('streaming');
    expect(offlineReply(question).startsWith(partial.content)).toBe(true);
    expect(partial.content.length).toBeLessThan(offlineReply(question).length);
    // ...and then it is complete, whole, in the database.
    const reply = await eventually(async () => {
      const { messages } = await messagesOf(s, control.conversation_id);
      return messages[1].status === 'complete' && messages[1];
    });
    expect(reply.content).toBe(offlineReply(question));
  });

  it('answers 409 to a second send while the conversation is answering, and accepts it afterwards', async () => {
    const first = await s.ask({ conversation_id: null, message: 'warm up' });
    const id = first.control.conversation_id;

    const res = await s.send({ conversation_id: id, message: 'a long answer please' });
    const events = readSse(res.body!);
    await events.next(); // the control record: the lease is taken
    const busy = await s.api('POST', '/chat/messages', { body: { conversation_id: id, message: 'are you done?' } });
    expect(busy.status).toBe(409);
    expect(busy.body.detail).toBe(CONVERSATION_BUSY);
    expect(busy.headers.get('content-type')).toMatch(/application\/json/);
    // An edit is refused the same way.
    const edit = await s.api('POST', '/chat/messages', {
      body: { conversation_id: id, message: 'x', message_id_to_edit: first.control.user_message_id },
    });
    expect(edit.status).toBe(409);

    // Other conversations are not blocked.
    const other = await s.ask({ conversation_id: null, message: 'unrelated' });
    expect(other.errors).toEqual([]);

    let last = '';
    for await (const e of events) last = e.event;
    expect(last).toBe('done');
    // Right after done the lease is released.
    const after = await s.ask({ conversation_id: id, message: 'now?' });
    expect(after.errors).toEqual([]);
    expect((await messagesOf(s, id)).messages.map((m) => m.content.slice(0, 4))).toEqual([
      'warm',
      offlineReply('warm up').slice(0, 4),
      'a lo',
      offlineReply('a long answer please').slice(0, 4),
      'now?',
      offlineReply('now?').slice(0, 4),
    ]);
  });
});
