import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversation as conversationSchema, conversationList, conversationMessages, type Conversation, type ConversationList, type ConversationMessages } from '../../contract/chat';
import { RECENT_MESSAGES_LIMIT, TITLE_EMPTY, TITLE_MAX_LENGTH, TITLE_TOO_LONG } from '../../contract/chat-constants';
import { successEnvelope } from '../../contract/envelope';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { dbKind } from './helpers/test-app';

describe(`conversations (${dbKind})`, () => {
  let s: ChatServer;
  beforeAll(async () => {
    s = await startChatServer();
  });
  afterAll(() => s.close());

  const list = async (query: Record<string, string | number> = {}, token?: string) => {
    const res = await s.api<ConversationList>('GET', '/chat/conversations', { query, token });
    expect(res.status).toBe(200);
    return successEnvelope(conversationList).parse(res.body).data;
  };
  const newConversation = async (message: string, token?: string) => (await s.ask({ conversation_id: null, message }, token)).control;

  it('lists only my conversations, newest activity first, 10 per page', async () => {
    const ids: string[] = [];
    for (let i = 1; i <= 12; i++) ids.push((await newConversation(`question number ${i}`)).conversation_id);
    await newConversation('a conversation of someone else', s.otherToken);

    const page1 = await list();
    expect(page1).toMatchObject({ page: 1, page_size: 10, total: 12, total_pages: 2 });
    expect(page1.conversations.map((c) => c.id)).toEqual(ids.slice(2).reverse());
    const page2 = await list({ page: 2 });
    expect(page2.conversations.map((c) => c.id)).toEqual([ids[1], ids[0]]);
    expect(await list({ page: 3 })).toMatchObject({ conversations: [], total: 12, total_pages: 2 });
    expect((await list({ page_size: 5, page: 3 })).conversations.map((c) => c.id)).toEqual([ids[1], ids[0]]);

    // New activity (a message; a rename) moves a conversation to the top.
    await s.ask({ conversation_id: ids[0], message: 'back to the first one' });
    expect((await list()).conversations[0].id).toBe(ids[0]);
    await s.api('PATCH', `/chat/conversations/${ids[1]}/rename`, { query: { title: 'Renamed' } });
    expect((await list()).conversations.slice(0, 2).map((c) => c.id)).toEqual([ids[1], ids[0]]);

    const other = await list({}, s.otherToken);
    expect(other.total).toBe(1);
    expect(other.conversations[0].title).not.toBe('Renamed');
  });

  it('rejects bad paging with 400 and needs a session', async () => {
    for (const query of [{ page: 0 }, { page_size: 101 }, { page: 'two' }]) {
      expect((await s.api('GET', '/chat/conversations', { query })).status).toBe(400);
    }
    const anon = await fetch(`${s.apiUrl}/chat/conversations`);
    expect(anon.status).toBe(401);
  });

  it('returns all messages oldest first, and the recent ones', async () => {
    const { conversation_id: id } = await newConversation('message 1');
    for (let i = 2; i <= 12; i++) await s.ask({ conversation_id: id, message: `message ${i}` });

    const all = await s.api<ConversationMessages>('GET', `/chat/conversations/${id}/messages`);
    expect(all.status).toBe(200);
    const body = successEnvelope(conversationMessages).parse(all.body).data;
    expect(body.conversation.id).toBe(id);
    expect(body.messages).toHaveLength(24);
    expect(body.messages.filter((m) => m.sender === 'user').map((m) => m.content)).toEqual(
      Array.from({ length: 12 }, (_, i) => `message ${i + 1}`),
    );
    expect(body.messages.map((m) => m.sender)).toEqual(Array.from({ length: 24 }, (_, i) => (i % 2 ? 'Assistant' : 'user')));

    const recent = await s.api<ConversationMessages>('GET', `/chat/conversations/${id}/messages/recent`);
    expect(recent.status).toBe(200);
    expect(recent.body.data.messages.map((m) => m.id)).toEqual(body.messages.slice(-RECENT_MESSAGES_LIMIT).map((m) => m.id));
  });

  it('renames with a trimmed title, refusing empty and over-long ones with the spec texts', async () => {
    const { conversation_id: id } = await newConversation('rename me');
    const rename = (title?: string) =>
      s.api<Conversation>('PATCH', `/chat/conversations/${id}/rename`, { query: title === undefined ? {} : { title } });

    const ok = await rename('  Budget 2027  ');
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Conversation renamed successfully');
    expect(successEnvelope(conversationSchema).parse(ok.body).data).toMatchObject({ id, title: 'Budget 2027' });

    for (const [title, detail] of [
      ['', TITLE_EMPTY],
      ['    ', TITLE_EMPTY],
      [undefined, TITLE_EMPTY],
      ['x'.repeat(TITLE_MAX_LENGTH + 1), TITLE_TOO_LONG],
    ] as const) {
      const res = await rename(title);
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(detail);
    }
    expect(TITLE_TOO_LONG).toBe('Conversation title cannot be more than 200 characters');
    expect((await rename('y'.repeat(TITLE_MAX_LENGTH))).status).toBe(200);
    expect((await list({ page_size: 100 })).conversations.find((c) => c.id === id)?.title).toBe('y'.repeat(TITLE_MAX_LENGTH));
  });

  it('deletes a conversation with its messages, keeping the usage ledger', async () => {
    const { conversation_id: id } = await newConversation('delete me');
    const res = await s.api('DELETE', `/chat/conversations/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Conversation deleted successfully');
    expect((await s.api('GET', `/chat/conversations/${id}/messages`)).status).toBe(404);
    expect((await list({ page_size: 100 })).conversations.map((c) => c.id)).not.toContain(id);
    const left = await s.db.selectFrom('messages').select('id').where('conversation_id', '=', id).execute();
    expect(left).toEqual([]);
    const usage = await s.db.selectFrom('usage_logs').select('id').where('conversation_id', '=', id).execute();
    expect(usage).toHaveLength(1);
    expect((await s.api('DELETE', `/chat/conversations/${id}`)).status).toBe(404);
  });

  it("answers 404 'Conversation not found' on every route for another user's conversation or an unknown id", async () => {
    const mine = await s.ask({ conversation_id: null, message: 'private matter' }, s.otherToken);
    const theirs = mine.control;
    for (const id of [theirs.conversation_id, 'no-such-conversation']) {
      const attempts = [
        s.api('GET', `/chat/conversations/${id}/messages`),
        s.api('GET', `/chat/conversations/${id}/messages/recent`),
        s.api('DELETE', `/chat/conversations/${id}`),
        s.api('PATCH', `/chat/conversations/${id}/rename`, { query: { title: 'Mine now' } }),
        s.api('POST', '/chat/messages', { body: { conversation_id: id, message: 'hello' } }),
        s.api('POST', '/chat/messages', { body: { conversation_id: id, message: 'edit', message_id_to_edit: theirs.user_message_id } }),
      ];
      for (const res of await Promise.all(attempts)) {
        expect(res.status).toBe(404);
        expect(res.body.detail).toBe('Conversation not found');
      }
    }
    // Untouched: its owner still sees it, with its title and both messages.
    const owner = await s.api<ConversationMessages>('GET', `/chat/conversations/${theirs.conversation_id}/messages`, { token: s.otherToken });
    expect(owner.status).toBe(200);
    expect(owner.body.data.conversation.title).not.toBe('Mine now');
    expect(owner.body.data.messages.map((m) => m.content)).toEqual(['private matter', mine.text]);
  });
});
