import { fromPromise } from 'xstate';
import type { Conversation } from '../../../contract/chat';
import { pagerMachine, type PageRequest, type PageResult } from '../../../machines/pager.machine';
import type { deleteConversation, fetchConversations, renameConversation, searchConversations } from '../../api/chat';

/** The API functions the conversation list calls (src/api/chat.ts; tests pass fakes). */
export interface ConversationListApi {
  fetchConversations: typeof fetchConversations;
  searchConversations: typeof searchConversations;
  renameConversation: typeof renameConversation;
  deleteConversation: typeof deleteConversation;
}

/**
 * The conversation list's side effects: its two pagers (the list, the search results) each with its own
 * request, and rename and delete. Built once at module level: `conversationListMachine.provide({ actors })`.
 */
export function defineConversationListActors({ api }: { api: ConversationListApi }) {
  return {
    pages: pagerMachine.provide({
      actors: {
        fetchPage: fromPromise<PageResult, PageRequest>(async ({ input, signal }) => {
          const list = await api.fetchConversations(input.page, input.pageSize, signal);
          return { items: list.conversations, page: list.page, total: list.total, totalPages: list.total_pages };
        }),
      },
    }),
    search: pagerMachine.provide({
      actors: {
        fetchPage: fromPromise<PageResult, PageRequest>(async ({ input, signal }) => {
          const found = await api.searchConversations(input.query, input.page, input.pageSize, signal);
          return { items: found.conversations, page: found.page, total: found.total, totalPages: Math.ceil(found.total / found.page_size) };
        }),
      },
    }),
    renameConversation: fromPromise<Conversation | void, { id: string; title: string }>(({ input }) => api.renameConversation(input.id, input.title)),
    deleteConversation: fromPromise<void, { id: string }>(({ input }) => api.deleteConversation(input.id)),
  };
}
