import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import type { ConversationList } from '../../contract/chat';
import { defineTitlePollActors } from '../../src/features/chat/chat-send-actors';

const list = (title: string): ConversationList => ({
  conversations: [{ id: 'c1', title, created_at: '2026-11-23T10:00:00Z', updated_at: '2026-11-23T10:00:00Z' }],
  page: 1,
  page_size: 10,
  total: 1,
  total_pages: 1,
});

describe('the title poll check', () => {
  it("reads page 1 beside the list's own request, never cancelling it (same URL)", async () => {
    const calls: unknown[][] = [];
    const { check } = defineTitlePollActors({
      api: {
        fetchConversations: async (...args: Parameters<typeof import('../../src/api/chat').fetchConversations>) => {
          calls.push(args.slice(0, 2).concat(args[3]));
          return list('Trip to Penang');
        },
      },
    });
    const title = await toPromise(createActor(check, { input: { conversationId: 'c1' } }).start());
    expect(title).toBe('Trip to Penang');
    expect(calls).toEqual([[1, 10, { concurrent: true }]]);
  });

  it("answers 'New Conversation' for a conversation not on the first page", async () => {
    const { check } = defineTitlePollActors({ api: { fetchConversations: async () => list('Other') } });
    expect(await toPromise(createActor(check, { input: { conversationId: 'c9' } }).start())).toBe('New Conversation');
  });
});
