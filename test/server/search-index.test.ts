import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertConversation, searchOwnConversations } from '../../server/db/repositories/conversations';
import { deleteMessagesAfter, finishReply, insertMessage, saveStreamingReplies, updateMessage } from '../../server/db/repositories/messages';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { dbKind } from './helpers/test-app';

describe(`the search index through a reply's life (${dbKind})`, () => {
  let s: ChatServer;
  beforeAll(async () => {
    s = await startChatServer();
  });
  afterAll(() => s.close());

  /** SQLite: FTS5 checks its index against the messages table itself (throws when they differ). */
  const indexIsExact = async () => {
    if (dbKind === 'sqlite') await sql`insert into messages_fts(messages_fts, rank) values ('integrity-check', 1)`.execute(s.db);
  };

  it('finds a reply by its final text once it has ended, never by text it no longer has', async () => {
    const user = await s.db.selectFrom('users').select(['id', 'client_id']).where('email', '=', 'user@demo.local').executeTakeFirstOrThrow();
    const found = async (term: string) => (await searchOwnConversations(s.db, user.id, [term], { limit: 10, offset: 0 })).rows.map((r) => r.id);
    const conversation = await insertConversation(s.db, { user_id: user.id, client_id: user.client_id, title: 'Index life', answering_until: new Date().toISOString() });
    const question = await insertMessage(s.db, { conversation_id: conversation.id, user_id: user.id, sender: 'user', content: 'quokkaquestion', status: 'complete' });
    const reply = await insertMessage(s.db, { conversation_id: conversation.id, user_id: user.id, sender: 'Assistant', content: '', status: 'streaming' });
    await saveStreamingReplies(s.db, [{ id: reply.id, content: 'zebracorn' }]);
    await saveStreamingReplies(s.db, [{ id: reply.id, content: 'zebracorn narwhalish' }]);
    await finishReply(s.db, reply.id, 'unicornfish', 'complete', false);
    await indexIsExact();
    expect(await found('unicornfish')).toEqual([conversation.id]);
    expect(await found('zebracorn')).toEqual([]);
    expect(await found('quokkaquestion')).toEqual([conversation.id]);

    // An edit drops the reply; the edited question is found by its new text only.
    await updateMessage(s.db, question.id, { content: 'platypusedit' });
    await deleteMessagesAfter(s.db, conversation.id, question.seq);
    await indexIsExact();
    expect(await found('unicornfish')).toEqual([]);
    expect(await found('quokkaquestion')).toEqual([]);
    expect(await found('platypusedit')).toEqual([conversation.id]);

    // A reply deleted while still streaming (its conversation deleted mid-reply) leaves nothing behind.
    const streaming = await insertMessage(s.db, { conversation_id: conversation.id, user_id: user.id, sender: 'Assistant', content: '', status: 'streaming' });
    await saveStreamingReplies(s.db, [{ id: streaming.id, content: 'wombatpartial' }]);
    await deleteMessagesAfter(s.db, conversation.id, question.seq);
    await indexIsExact();
    expect(await found('wombatpartial')).toEqual([]);
  });
});
