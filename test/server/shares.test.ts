import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationMessages, type ConversationMessages } from '../../contract/chat';
import { successEnvelope } from '../../contract/envelope';
import { SHARE_NOT_FOUND, shareLink, sharedConversation, type ShareLink, type SharedConversation } from '../../contract/shares';
import { insertMessage } from '../../server/db/repositories/messages';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { addUser, createOrganisation, login } from './helpers/fixtures';
import { dbKind, PUBLIC_URL } from './helpers/test-app';

const SHARE_URL = new RegExp(`^${PUBLIC_URL.replace(/[.]/g, '\\.')}/share/([A-Za-z0-9_-]{22,})$`);

describe(`shared conversations (${dbKind})`, () => {
  let s: ChatServer;
  let adminToken: string;
  let superToken: string;
  /** A user of another organisation. */
  let strangerToken: string;
  beforeAll(async () => {
    s = await startChatServer();
    adminToken = (await login(s.app, 'admin@demo.local')).access_token;
    superToken = (await login(s.app, 'super@demo.local')).access_token;
    const other = await createOrganisation(s.db, { name: 'Other Org' });
    await addUser(s.db, { client_id: other.client.id, name: 'Sam Stranger', email: 'sam@other.test' });
    strangerToken = (await login(s.app, 'sam@other.test')).access_token;
  });
  afterAll(() => s.close());

  const share = async (conversationId: string, token?: string) => {
    const res = await s.api<ShareLink>('POST', `/shares/conversations/${conversationId}`, { token });
    expect(res.status).toBe(200);
    const { share_url } = successEnvelope(shareLink).parse(res.body).data;
    expect(share_url).toMatch(SHARE_URL);
    return { url: share_url, id: SHARE_URL.exec(share_url)![1] };
  };
  const read = async (shareId: string, token?: string) => {
    const res = await s.api<SharedConversation>('GET', `/shares/${shareId}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return successEnvelope(sharedConversation).parse(res.body).data;
  };
  const messagesOf = async (conversationId: string) => {
    const res = await s.api<ConversationMessages>('GET', `/chat/conversations/${conversationId}/messages`);
    return successEnvelope(conversationMessages).parse(res.body).data;
  };
  const newConversation = async (message: string, token?: string) => {
    const { control } = await s.ask({ conversation_id: null, message }, token);
    return control.conversation_id;
  };

  it('gives an unguessable link to the SPA page, the same one when asked again', async () => {
    const id = await newConversation('How do I file a travel claim?');
    const first = await share(id);
    expect(first.id.length).toBeGreaterThanOrEqual(22);
    expect(first.url).toBe(`${PUBLIC_URL}/share/${first.id}`);
    expect((await share(id)).url).toBe(first.url);

    const other = await share(await newConversation('Another question'));
    expect(other.id).not.toBe(first.id);
  });

  it('shows colleagues of the organisation the conversation as shared, oldest message first', async () => {
    const id = await newConversation('Summarise the leave policy');
    await s.ask({ conversation_id: id, message: 'Shorter, please' });
    await s.api('PATCH', `/chat/conversations/${id}/rename`, { query: { title: 'Leave policy' } });
    const { id: shareId } = await share(id);
    const original = await messagesOf(id);

    for (const token of [s.otherToken, adminToken, s.token]) {
      const shared = await read(shareId, token);
      expect(shared.conversation).toEqual({ id, title: 'Leave policy', created_at: original.conversation.created_at });
      expect(shared.messages).toEqual(
        original.messages.map((m) => ({ id: m.id, content: m.content, sender: m.sender, created_at: m.created_at })),
      );
    }
    expect((await read(shareId)).messages.map((m) => m.sender)).toEqual(['user', 'Assistant', 'user', 'Assistant']);
  });

  it('keeps the snapshot as it was until the owner shares again, which refreshes it under the same link', async () => {
    const id = await newConversation('First question');
    await s.api('PATCH', `/chat/conversations/${id}/rename`, { query: { title: 'Before' } });
    const { id: shareId, url } = await share(id);
    const before = await read(shareId, s.otherToken);
    expect(before.messages).toHaveLength(2);

    // Later activity: a new exchange, a rename, and an edit of the first question (which replaces everything).
    await s.ask({ conversation_id: id, message: 'Second question' });
    await s.api('PATCH', `/chat/conversations/${id}/rename`, { query: { title: 'After' } });
    const firstQuestion = (await messagesOf(id)).messages[0];
    await s.ask({ conversation_id: id, message: 'First question, edited', message_id_to_edit: firstQuestion.id });
    expect(await read(shareId, s.otherToken)).toEqual(before);

    expect((await share(id)).url).toBe(url);
    const after = await read(shareId, s.otherToken);
    expect(after.conversation.title).toBe('After');
    expect(after.messages.map((m) => m.content)[0]).toBe('First question, edited');
    expect(after.messages).toHaveLength((await messagesOf(id)).messages.length);
  });

  it('leaves out replies still being written and replies that failed', async () => {
    const id = await newConversation('A question answered');
    await insertMessage(s.db, { conversation_id: id, user_id: s.userId, sender: 'user', content: 'A question that failed', status: 'complete' });
    await insertMessage(s.db, { conversation_id: id, user_id: s.userId, sender: 'Assistant', content: 'Half a rep\n\n:::error{type="llm"}\nThe model failed\n:::', status: 'error' });
    await insertMessage(s.db, { conversation_id: id, user_id: s.userId, sender: 'user', content: 'A question being answered', status: 'complete' });
    await insertMessage(s.db, { conversation_id: id, user_id: s.userId, sender: 'Assistant', content: 'Still writ', status: 'streaming' });
    const { id: shareId } = await share(id);
    const shared = await read(shareId, s.otherToken);
    expect(shared.messages.map((m) => m.content)).toEqual([
      'A question answered',
      expect.any(String),
      'A question that failed',
      'A question being answered',
    ]);
    expect(shared.messages[1].sender).toBe('Assistant');
  });

  it('keeps a long conversation whole: 1,000 messages in their order', async () => {
    const id = await newConversation('The start of a long one');
    const start = Date.now();
    const rows = Array.from({ length: 998 }, (_, i) => ({
      id: randomUUID(),
      conversation_id: id,
      user_id: s.userId,
      sender: i % 2 === 0 ? ('user' as const) : ('Assistant' as const),
      content: `message ${i + 3}`,
      content_length: `message ${i + 3}`.length,
      status: 'complete' as const,
      seq: i + 3,
      created_at: new Date(start + i).toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 250) await s.db.insertInto('messages').values(rows.slice(i, i + 250)).execute();
    const { id: shareId } = await share(id);
    const shared = await read(shareId, s.otherToken);
    expect(shared.messages).toHaveLength(1000);
    expect(shared.messages.slice(2).map((m) => m.content)).toEqual(rows.map((r) => r.content));
  });

  it("answers 404 'Conversation not found' for sharing another person's conversation or an unknown one", async () => {
    const theirs = await newConversation('My own business', s.otherToken);
    for (const id of [theirs, 'no-such-conversation']) {
      const res = await s.api('POST', `/shares/conversations/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe('Conversation not found');
    }
  });

  it('hides a share from other organisations and from superusers with the 404 of an unknown link', async () => {
    const { id: shareId } = await share(await newConversation('Internal matter'));
    for (const token of [strangerToken, superToken]) {
      const res = await s.api('GET', `/shares/${shareId}`, { token });
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe(SHARE_NOT_FOUND);
    }
    const unknown = await s.api('GET', '/shares/AAAAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe(SHARE_NOT_FOUND);
  });

  it("shows a superuser's shares to superusers only", async () => {
    const { id: shareId } = await share(await newConversation('Platform question', superToken), superToken);
    expect((await read(shareId, superToken)).messages).toHaveLength(2);
    for (const token of [s.token, adminToken, strangerToken]) {
      const res = await s.api('GET', `/shares/${shareId}`, { token });
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe(SHARE_NOT_FOUND);
    }
  });

  it('ends the link when the conversation is deleted', async () => {
    const id = await newConversation('Delete me later');
    const { id: shareId } = await share(id);
    expect((await read(shareId, s.otherToken)).messages).toHaveLength(2);
    expect((await s.api('DELETE', `/chat/conversations/${id}`)).status).toBe(200);

    const res = await s.api('GET', `/shares/${shareId}`, { token: s.otherToken });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe(SHARE_NOT_FOUND);
    expect(await s.db.selectFrom('shared_messages').select('seq').where('share_id', '=', shareId).execute()).toEqual([]);
  });

  it('needs a session for both routes', async () => {
    const id = await newConversation('Anonymous attempts');
    const { id: shareId } = await share(id);
    for (const [method, path] of [
      ['POST', `/shares/conversations/${id}`],
      ['GET', `/shares/${shareId}`],
    ]) {
      const res = await fetch(`${s.apiUrl}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect((await res.json()).detail).toBe('Not authenticated');
    }
  });
});
