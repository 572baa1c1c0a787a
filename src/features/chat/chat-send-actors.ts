import { fromPromise } from 'xstate';
import { CONVERSATION_PAGE_SIZE, DEFAULT_CONVERSATION_TITLE } from '../../../contract/chat-constants';
import type { ConversationMessages } from '../../../contract/chat';
import { followReplyMachine, loadFailure, type LoadEarlierInput, type LoadInput } from '../../../machines/chat-send.machine';
import type { TitlePollCheckInput } from '../../../machines/title-poll.machine';
import { ApiError } from '../../api/api-error';
import type { fetchConversations, fetchMessages, fetchRecentMessages } from '../../api/chat';
import type { streamMessage } from '../../api/chat-stream';
import { defineSendMessageActor } from './send-message-actor';

/**
 * The side effects of the chat's machines, built from the API functions they call (src/api/chat.ts and
 * chat-stream.ts; tests pass fakes). Built once at module level, never inside a hook:
 * `chatSendMachine.provide({ actors: defineChatSendActors({ api }) })` and
 * `titlePollMachine.provide({ actors: defineTitlePollActors({ api }) })`.
 */
export interface ChatSendApi {
  fetchMessages: typeof fetchMessages;
  fetchRecentMessages: typeof fetchRecentMessages;
  streamMessage: typeof streamMessage;
}

export interface TitlePollApi {
  fetchConversations: typeof fetchConversations;
}

/**
 * The machines only tell the server's own sentence from a dropped connection (spec: `Failed to refresh messages.
 * ${detail}` with the server's detail, else 'Failed to fetch recent messages'); ApiError says which it was.
 */
function asLoadFailure(error: unknown) {
  const serverDetail = error instanceof ApiError && error.status !== 0 && error.detail ? error.detail : null;
  return loadFailure(error instanceof Error ? error.message : String(error), serverDetail);
}

export function defineChatSendActors({ api }: { api: ChatSendApi }) {
  const loadRecent = fromPromise<ConversationMessages, LoadInput>(({ input, signal }) =>
    api.fetchRecentMessages(input.conversationId, signal).catch((error: unknown) => Promise.reject(asLoadFailure(error))),
  );
  return {
    loadMessages: fromPromise<ConversationMessages, LoadInput>(({ input, signal }) =>
      api.fetchMessages(input.conversationId, signal).catch((error: unknown) => Promise.reject(asLoadFailure(error))),
    ),
    loadRecent,
    loadEarlier: fromPromise<ConversationMessages, LoadEarlierInput>(({ input, signal }) =>
      api.fetchMessages(input.conversationId, signal, input.before).catch((error: unknown) => Promise.reject(asLoadFailure(error))),
    ),
    sendMessage: defineSendMessageActor({ api }),
    // Following a reply written elsewhere checks the recent messages, like a refresh.
    follow: followReplyMachine.provide({ actors: { check: loadRecent } }),
  };
}

export function defineTitlePollActors({ api }: { api: TitlePollApi }) {
  return {
    // Spec: the app polls the conversation list for the new title; a new conversation is on its first page.
    check: fromPromise<string, TitlePollCheckInput>(async ({ input, signal }) => {
      const page = await api.fetchConversations(1, CONVERSATION_PAGE_SIZE, signal, { concurrent: true });
      return page.conversations.find((c) => c.id === input.conversationId)?.title ?? DEFAULT_CONVERSATION_TITLE;
    }),
  };
}
