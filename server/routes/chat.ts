import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { paths } from '../../contract/api-paths';
import { conversation as conversationSchema, conversationList, conversationListQuery, conversationMessages, conversationSearchQuery, conversationSearchResult, renameQuery, sendMessageRequest, type StreamControl } from '../../contract/chat';
import { SEARCH_MIN_CHARS } from '../../contract/chat-constants';
import { messageOnly } from '../../contract/envelope';
import type { AppContext } from '../context';
import { currentUser, type AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { openEventStream, type EventStream } from '../http/sse';
import { parseBody, parseInput } from '../http/validate';
import {
  CONVERSATION_DELETED,
  CONVERSATION_RENAMED,
  conversationMessages as readConversationMessages,
  deleteConversation,
  listConversations,
  renameConversation,
  searchConversations,
} from '../services/chat';
import { startExchange, startReply } from '../services/chat-stream';
import { enforceRateLimit } from '../services/rate-limit';
import type { ReplyEvent } from '../services/stream-hub';

/** No length bound: an id too long to exist is simply not found (404), like any unknown id. */
const idParams = z.object({ id: z.string().min(1) });

export async function chatRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const auth = { preHandler: guards.requireAuth };

  app.get(paths.conversations, auth, async (request) => {
    const query = parseInput(conversationListQuery, request.query);
    const paging = { page: query.page, pageSize: query.page_size };
    const userId = currentUser(request).id;
    // Shorter text is a search still being typed: the spec shows the normal list until 3 characters.
    const list =
      query.search && query.search.length >= SEARCH_MIN_CHARS
        ? await searchConversations(ctx.db, userId, query.search, paging)
        : await listConversations(ctx.db, userId, paging);
    return ok(conversationList, list);
  });

  app.get(paths.conversationSearch, auth, async (request) => {
    const query = parseInput(conversationSearchQuery, request.query);
    const found = await searchConversations(ctx.db, currentUser(request).id, query.query, { page: query.page, pageSize: query.page_size });
    return ok(conversationSearchResult, found);
  });

  app.get(paths.conversationMessages, auth, async (request) => {
    const { id } = parseInput(idParams, request.params);
    return ok(conversationMessages, await readConversationMessages(ctx.db, currentUser(request).id, id, 'all'));
  });

  app.get(paths.conversationRecentMessages, auth, async (request) => {
    const { id } = parseInput(idParams, request.params);
    return ok(conversationMessages, await readConversationMessages(ctx.db, currentUser(request).id, id, 'recent'));
  });

  app.delete(paths.conversation, auth, async (request) => {
    const { id } = parseInput(idParams, request.params);
    await deleteConversation(ctx.db, currentUser(request).id, id);
    return ok(messageOnly, { message: CONVERSATION_DELETED }, CONVERSATION_DELETED);
  });

  app.patch(paths.conversationRename, auth, async (request) => {
    const { id } = parseInput(idParams, request.params);
    const { title } = parseInput(renameQuery, request.query);
    const renamed = await renameConversation(ctx.db, currentUser(request).id, id, title);
    return ok(conversationSchema, renamed, CONVERSATION_RENAMED);
  });

  // Refusals (400, 404, 409) answer as JSON before the stream opens; after that, failures are stream events.
  app.post(paths.messages, auth, async (request, reply) => {
    const body = parseBody(sendMessageRequest, request.body);
    const user = currentUser(request);
    await enforceRateLimit(ctx.rateLimits, `messages:user:${user.id}`, ctx.config.rateLimits.messagesPerUser, 'messages');
    const exchange = await startExchange(ctx, user, body);
    const streamId = startReply(ctx, { user, exchange, reasoningEffort: body.reasoning_effort });

    const stream = openEventStream(reply);
    const control: StreamControl = {
      conversation_id: exchange.conversation.id,
      message_id: exchange.reply.id,
      user_message_id: exchange.userMessage.id,
    };
    stream.send(control);
    // Leaving only stops the delivery: the reply goes on being written and saved.
    const unsubscribe = ctx.streams.subscribe(streamId, {
      onEvent: (event) => sendReplyEvent(stream, event),
      onEnd: () => stream.end(),
    });
    stream.onClose(unsubscribe);
  });
}

function sendReplyEvent(stream: EventStream, event: ReplyEvent): void {
  if (event.type === 'delta') stream.send(event.text);
  else if (event.type === 'error') stream.send(event.error, 'error');
  else stream.send(event.done, 'done');
}
