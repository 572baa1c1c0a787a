import { pathTo, paths } from '../../contract/api-paths';
import type {
  Conversation,
  ConversationList,
  ConversationMessages,
  ConversationSearchResult,
  ReplyStopResult,
} from '../../contract/chat';
import { api } from './http';

/**
 * `concurrent`: a caller that is not the list (the title poll reads page 1 too) must neither cancel the list's own
 * request for the same page nor be cancelled by it.
 */
export async function fetchConversations(
  page: number,
  pageSize: number,
  signal?: AbortSignal,
  options: { concurrent?: boolean } = {},
): Promise<ConversationList> {
  return (await api.get<ConversationList>(paths.conversations, { query: { page, page_size: pageSize }, signal, concurrent: options.concurrent })).data;
}

export async function searchConversations(
  query: string,
  page: number,
  pageSize: number,
  signal?: AbortSignal,
): Promise<ConversationSearchResult> {
  return (await api.get<ConversationSearchResult>(paths.conversationSearch, { query: { query, page, page_size: pageSize }, signal })).data;
}

/** The latest page of messages, or with `before` (a page's earlier_cursor) the page before it. */
export async function fetchMessages(id: string, signal?: AbortSignal, before?: string): Promise<ConversationMessages> {
  const query = before === undefined ? undefined : { before };
  return (await api.get<ConversationMessages>(pathTo(paths.conversationMessages, { id }), { query, signal })).data;
}

export async function fetchRecentMessages(id: string, signal?: AbortSignal): Promise<ConversationMessages> {
  return (await api.get<ConversationMessages>(pathTo(paths.conversationRecentMessages, { id }), { signal })).data;
}

export async function deleteConversation(id: string): Promise<void> {
  await api.delete(pathTo(paths.conversation, { id }));
}

export async function renameConversation(id: string, title: string): Promise<Conversation> {
  return (await api.patch<Conversation>(pathTo(paths.conversationRename, { id }), undefined, { query: { title } })).data;
}

/** Stop: the server ends the reply with the text so far (its stream then ends with `done`). */
export async function stopReply(messageId: string): Promise<ReplyStopResult> {
  return (await api.post<ReplyStopResult>(pathTo(paths.messageStop, { id: messageId }))).data;
}
