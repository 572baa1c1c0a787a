import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { CONVERSATION_PAGE_SIZE, DEFAULT_CONVERSATION_TITLE } from '../../../contract/chat-constants';
import type { ConversationMessages, ReplyStopResult } from '../../../contract/chat';
import type { LoadEarlierInput, LoadInput, StopReplyInput } from '../../../machines/chat-send.machine';
import { followPollMachine, followReplyMachine, type FollowStreamEvent } from '../../../machines/follow-reply.machine';
import type { TitlePollCheckInput } from '../../../machines/title-poll.machine';
import { withServerDetail } from '../../lib/load-failure';
import type { fetchConversations, fetchMessages, fetchRecentMessages, stopReply } from '../../api/chat';
import type { streamMessage } from '../../api/chat-stream';
import type { followReply } from '../../api/reply-follow';
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
  stopReply: typeof stopReply;
  followReply: typeof followReply;
}

export interface TitlePollApi {
  fetchConversations: typeof fetchConversations;
}


export function defineChatSendActors({ api }: { api: ChatSendApi }) {
  const loadRecent = fromPromise<ConversationMessages, LoadInput>(({ input, signal }) =>
    withServerDetail(api.fetchRecentMessages(input.conversationId, signal)),
  );
  return {
    loadMessages: fromPromise<ConversationMessages, LoadInput>(({ input, signal }) =>
      withServerDetail(api.fetchMessages(input.conversationId, signal)),
    ),
    loadRecent,
    loadEarlier: fromPromise<ConversationMessages, LoadEarlierInput>(({ input, signal }) =>
      withServerDetail(api.fetchMessages(input.conversationId, signal, input.before)),
    ),
    sendMessage: defineSendMessageActor({ api }),
    stopReply: fromPromise<ReplyStopResult, StopReplyInput>(({ input }) => api.stopReply(input.messageId)),
    // Following a reply written elsewhere reads its stream, and checks the recent messages like a refresh.
    follow: followReplyMachine.provide({
      actors: {
        followStream: fromCallback<EventObject, { messageId: string }>(({ input, sendBack }) => {
          const abort = new AbortController();
          const report = (event: FollowStreamEvent) => !abort.signal.aborted && sendBack(event);
          api.followReply(input.messageId, { onChunk: (text) => report({ type: 'stream.chunk', text }) }, { signal: abort.signal }).then(
            (how) => report({ type: how === 'done' ? 'stream.done' : 'stream.ended' }),
            (error: unknown) => report({ type: 'stream.failed', error }),
          );
          return () => abort.abort();
        }),
        check: loadRecent,
        poll: followPollMachine.provide({ actors: { check: loadRecent } }),
      },
    }),
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
