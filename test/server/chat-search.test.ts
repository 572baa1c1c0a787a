import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationSearchResult, type ConversationList, type ConversationSearchResult } from '../../contract/chat';
import { SEARCH_TOO_SHORT } from '../../contract/chat-constants';
import { successEnvelope } from '../../contract/envelope';
import { makeSnippet } from '../../server/services/chat/chat';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { dbKind } from './helpers/test-app';

const LONG_TEXT =
  'Our travel policy has many rules. ' +
  'Economy class is required for flights under six hours, and hotels must be booked through the portal. '.repeat(3) +
  'Per diem for Kuala Lumpur is paid in ringgit and covers meals. ' +
  'Receipts are kept for seven years. '.repeat(4);

describe(`conversation search (${dbKind})`, () => {
  let s: ChatServer;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    s = await startChatServer();
    ids.travel = (await s.ask({ conversation_id: null, message: LONG_TEXT })).control.conversation_id;
    ids.kubernetes = (await s.ask({ conversation_id: null, message: 'How do we deploy services to Kubernetes?' })).control.conversation_id;
    ids.second = (await s.ask({ conversation_id: null, message: 'Another Kubernetes question: scaling pods' })).control.conversation_id;
    ids.titled = (await s.ask({ conversation_id: null, message: 'Something unrelated' })).control.conversation_id;
    await s.api('PATCH', `/chat/conversations/${ids.titled}/rename`, { query: { title: 'Quarterly budget review' } });
    // Another user's conversation with the same words is never found.
    await s.ask({ conversation_id: null, message: 'Kubernetes budget per diem secrets' }, s.otherToken);
  });
  afterAll(() => s.close());

  const search = async (query: Record<string, string | number>) => {
    const res = await s.api<ConversationSearchResult>('GET', '/chat/conversations/search', { query });
    expect(res.status).toBe(200);
    return successEnvelope(conversationSearchResult).parse(res.body).data;
  };

  it('needs at least 3 characters', async () => {
    for (const query of [{ query: 'ab' }, { query: '  ab  ' }, {}]) {
      const res = await s.api('GET', '/chat/conversations/search', { query });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(SEARCH_TOO_SHORT);
    }
    expect(SEARCH_TOO_SHORT).toBe('Type at least 3 characters to search...');
  });

  it('finds message text by word prefix, case-insensitively, only in my conversations, with a snippet', async () => {
    const found = await search({ query: 'KUBERN' });
    expect(found).toMatchObject({ page: 1, page_size: 10, total: 2 });
    expect(found.conversations.map((c) => c.id)).toEqual([ids.second, ids.kubernetes]);
    // The newest matching message gives the snippet: here the offline responder quoting the question.
    expect(found.conversations[1].matching_snippet).toContain('How do we deploy services to Kubernetes?');

    const perDiem = await search({ query: 'per diem kuala' });
    expect(perDiem.conversations.map((c) => c.id)).toEqual([ids.travel]);
    const snippet = perDiem.conversations[0].matching_snippet!;
    expect(snippet).toContain('Per diem for Kuala Lumpur');
    expect(snippet.length).toBeLessThanOrEqual(162);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);

    // Every word must match.
    expect((await search({ query: 'kubernetes ringgit' })).total).toBe(0);
    expect((await search({ query: 'nothing-like-this' })).total).toBe(0);
  });

  it('finds conversation titles too', async () => {
    const found = await search({ query: 'quarterly budget' });
    expect(found.conversations.map((c) => [c.id, c.matching_snippet])).toEqual([[ids.titled, 'Quarterly budget review']]);
  });

  it('treats search syntax as plain words', async () => {
    for (const query of ['"kubernetes', 'kubernetes*', 'kubernetes OR budget', "kubernetes') --", 'NEAR(kubernetes)']) {
      const res = await s.api<ConversationSearchResult>('GET', '/chat/conversations/search', { query: { query } });
      expect(res.status, query).toBe(200);
    }
    expect((await search({ query: '"kubernetes"' })).total).toBe(2);
    expect((await search({ query: '***' })).total).toBe(0);
  });

  it('pages the hits', async () => {
    const page1 = await search({ query: 'kubernetes', page_size: 1 });
    const page2 = await search({ query: 'kubernetes', page_size: 1, page: 2 });
    expect(page1.total).toBe(2);
    expect([...page1.conversations, ...page2.conversations].map((c) => c.id)).toEqual([ids.second, ids.kubernetes]);
    expect((await search({ query: 'kubernetes', page_size: 1, page: 3 })).conversations).toEqual([]);
  });

  it('searches through the list route too, from 3 characters on', async () => {
    const res = await s.api<ConversationList>('GET', '/chat/conversations', { query: { search: 'kubernetes', page_size: 1 } });
    expect(res.body.data).toMatchObject({ total: 2, total_pages: 2 });
    expect(res.body.data.conversations[0].matching_snippet).toContain('Another Kubernetes question: scaling pods');
    // Shorter: the normal list.
    const all = await s.api<ConversationList>('GET', '/chat/conversations', { query: { search: 'ku' } });
    expect(all.body.data.total).toBe(4);
    expect(all.body.data.conversations[0].matching_snippet).toBeUndefined();
  });

  it('keeps the index in step with edits and deletions', async () => {
    const { control } = await s.ask({ conversation_id: null, message: 'zebra crossing rules' });
    // A title without the words, so only the messages can match.
    await s.api('PATCH', `/chat/conversations/${control.conversation_id}/rename`, { query: { title: 'Animals' } });
    expect((await search({ query: 'zebra' })).total).toBe(1);
    await s.ask({ conversation_id: control.conversation_id, message: 'giraffe crossing rules', message_id_to_edit: control.user_message_id });
    expect((await search({ query: 'zebra' })).total).toBe(0);
    expect((await search({ query: 'giraffe' })).total).toBe(1);
    await s.api('DELETE', `/chat/conversations/${control.conversation_id}`);
    expect((await search({ query: 'giraffe' })).total).toBe(0);
  });
});

describe('makeSnippet', () => {
  it('keeps short text whole and strips markdown and markers', () => {
    expect(makeSnippet('**Hello** `world`\n\n:::error{type="llm"}\nfailed\n:::', ['world'])).toBe('Hello world failed');
  });

  it('cuts long text around the first match at word boundaries', () => {
    const text = `${'alpha '.repeat(40)}needle ${'omega '.repeat(40)}`;
    const snippet = makeSnippet(text, ['needle']);
    expect(snippet).toMatch(/^…alpha .*needle omega.*omega…$/);
    expect(snippet.length).toBeLessThanOrEqual(162);
  });
});
