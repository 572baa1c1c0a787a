import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationMessages } from '../../contract/chat';
import { successEnvelope } from '../../contract/envelope';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { uploadFile } from './helpers/document-api';
import { dbKind } from './helpers/test-app';

// A sent question shows the files it carried (issue 28), also after a reload: the message pages name them.

const text = (s: string) => Buffer.from(s, 'utf8');

describe(`the files a question carried (${dbKind})`, () => {
  let s: ChatServer;
  beforeAll(async () => {
    s = await startChatServer();
  });
  afterAll(() => s.close());

  const upload = async (conversationId: string | null, name: string, token?: string) => {
    const res = await uploadFile(s, conversationId, name, text(`The contents of ${name}`), { token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as { id: string; size: number };
  };
  const page = async (conversationId: string) => {
    const res = await s.api('GET', `/chat/conversations/${conversationId}/messages`);
    expect(res.status).toBe(200);
    return successEnvelope(conversationMessages).parse(res.body).data.messages;
  };

  it('a new chat: the first question lists its files (name, type, size); the reply and later questions none', async () => {
    const a = await upload(null, 'agenda.txt');
    const b = await upload(null, 'minutes.md');
    const first = await s.ask({ conversation_id: null, message: 'Read these', document_ids: [a.id, b.id] });
    const conversationId = first.control.conversation_id;
    await s.ask({ conversation_id: conversationId, message: 'And one more thing' });
    const messages = await page(conversationId);
    expect(messages.map((m) => [m.sender, m.documents])).toEqual([
      [
        'user',
        [
          { id: a.id, filename: 'agenda.txt', type: 'text/plain', size: a.size },
          { id: b.id, filename: 'minutes.md', type: 'text/markdown', size: b.size },
        ],
      ],
      ['Assistant', undefined],
      ['user', undefined],
      ['Assistant', undefined],
    ]);
    expect(messages[0]!.id).toBe(first.control.user_message_id);
    // The recent page says the same.
    const recent = await s.api('GET', `/chat/conversations/${conversationId}/messages/recent`);
    const recentMessages = successEnvelope(conversationMessages).parse(recent.body).data.messages;
    expect(recentMessages[0]!.documents?.map((d) => d.filename)).toEqual(['agenda.txt', 'minutes.md']);
  });

  it('a conversation: a question carries the files uploaded into it and listed for it, once', async () => {
    const conversationId = (await s.ask({ conversation_id: null, message: 'A conversation' })).control.conversation_id;
    const doc = await upload(conversationId, 'budget.csv');
    const carried = await s.ask({ conversation_id: conversationId, message: 'Look at the budget', document_ids: [doc.id] });
    // Named again by a later question: it stays with the first one.
    const again = await s.ask({ conversation_id: conversationId, message: 'Again', document_ids: [doc.id] });
    const messages = await page(conversationId);
    const byId = new Map(messages.map((m) => [m.id, m]));
    expect(byId.get(carried.control.user_message_id)?.documents?.map((d) => d.filename)).toEqual(['budget.csv']);
    expect(byId.get(again.control.user_message_id)?.documents).toBeUndefined();
  });

  it("another person's file, or one of another conversation, is passed over", async () => {
    const other = await upload(null, 'theirs.txt', s.otherToken);
    const elsewhere = (await s.ask({ conversation_id: null, message: 'Elsewhere' })).control.conversation_id;
    const foreignConversation = await upload(elsewhere, 'elsewhere.txt');
    const conversationId = (await s.ask({ conversation_id: null, message: 'Mine' })).control.conversation_id;
    const sent = await s.ask({ conversation_id: conversationId, message: 'Try', document_ids: [other.id, foreignConversation.id] });
    const messages = await page(conversationId);
    expect(messages.find((m) => m.id === sent.control.user_message_id)?.documents).toBeUndefined();
  });
});
