import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paths } from '../../contract/api-paths';
import {
  conversation,
  conversationList,
  conversationListQuery,
  conversationMessages,
  conversationSearchQuery,
  conversationSearchResult,
  messagePageQuery,
  renameQuery,
  replyStopResult,
  sendMessageRequest,
} from '../../contract/chat';
import { CONVERSATION_EXPORT_PATH, conversationExportQuery } from '../../contract/chat-export';
import { messageOnly, successEnvelope } from '../../contract/envelope';
import { idParams } from '../../contract/fields';
import type { AppContext } from '../context';
import { currentUser, type AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { openEventStream, type EventStream } from '../http/sse';
import {
  CONVERSATION_DELETED,
  CONVERSATION_RENAMED,
  conversationMessages as readConversationMessages,
  deleteConversation,
  listOrSearchConversations,
  renameConversation,
  searchConversations,
} from '../services/chat/chat';
import { exportConversation } from '../services/chat/conversation-export';
import { contentDisposition } from '../services/documents/documents-download';
import { stopReply } from '../services/chat/reply-stops';
import { requireReplyToFollow, stillStreaming } from '../services/chat/reply-follow';
import { chatToolsRoutes } from './chat-tools';
import { startSend } from '../services/chat/send-message';
import { moment } from '../services/chat/chat-stream';
import type { ReplyEvent } from '../platform/stream-hub';

/** The stream's 200, for the OpenAPI document (the route writes the raw socket itself, see sse.ts). */
const replyStream = {
  description:
    'The reply as Server-Sent Events: first `data: {"conversation_id", "message_id", "user_message_id"}`, then ' +
    'while the reply waits on a tool (web browsing) `event: status` with `{"activity": "searching_web"}`, then ' +
    '`data: "<JSON-encoded text delta>"` events, on failure `event: error` with `{"type": "llm" | "max-tokens" | "unknown", "message"}`, ' +
    'and last `event: done` with `{"message_id", "usage": {"prompt_tokens", "completion_tokens"}, "stopped"}`.',
  content: { 'text/event-stream': { schema: z.string().describe('Server-Sent Events') } },
};

/** The follow stream's 200. */
const followStream = {
  description: 'The reply as Server-Sent Events, as the send stream after its control record.',
  content: { 'text/event-stream': { schema: z.string().describe('Server-Sent Events') } },
};

/** How often a followed reply's saved status is read, for a writer that died without ending it. */
const FOLLOW_CHECK_MS = 5_000;

export async function chatRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const auth = guards.requireAuth;
  const tags = ['chat'];
  await chatToolsRoutes(app, ctx, guards);

  api.get(
    paths.conversations,
    {
      onRequest: auth,
      schema: {
        summary: 'My conversations, latest activity first',
        description: 'With `search` of 3 characters or more: the same as /chat/conversations/search.',
        tags,
        querystring: conversationListQuery,
        response: { 200: successEnvelope(conversationList), ...errorResponses(400) },
      },
    },
    async (request) => {
      const { page, page_size, search } = request.query;
      return ok(await listOrSearchConversations(ctx.db, currentUser(request).id, search, { page, pageSize: page_size }));
    },
  );

  api.get(
    paths.conversationSearch,
    {
      onRequest: auth,
      schema: {
        summary: 'Search my conversations (titles and messages, by word prefix)',
        tags,
        querystring: conversationSearchQuery,
        response: { 200: successEnvelope(conversationSearchResult), ...errorResponses(400) },
      },
    },
    async (request) => {
      const { query, page, page_size } = request.query;
      return ok(await searchConversations(ctx.db, currentUser(request).id, query, { page, pageSize: page_size }));
    },
  );

  api.get(
    paths.conversationMessages,
    {
      onRequest: auth,
      schema: {
        summary: 'A page of a conversation\'s messages: the latest ones, or those before a cursor',
        description:
          'Pages go from the newest messages back: the first page (no `before`) holds the latest `limit` messages, ' +
          'oldest first; its `earlier_cursor`, passed as `before`, gives the messages just before it, and so on until ' +
          '`earlier_cursor` is null (the page starts with the first message). A page of very long messages holds ' +
          `fewer than \`limit\` (at least one). A cursor that was not given by this endpoint is refused with 400.`,
        tags,
        params: idParams,
        querystring: messagePageQuery,
        response: { 200: successEnvelope(conversationMessages), ...errorResponses(400, 404) },
      },
    },
    async (request) =>
      ok(await readConversationMessages(ctx.db, currentUser(request).id, request.params.id, request.query, ctx.config.publicUrl)),
  );

  api.get(
    paths.conversationRecentMessages,
    {
      onRequest: auth,
      schema: {
        summary: 'A conversation with its latest 20 messages, oldest first',
        description: 'The same answer as the first page of .../messages with `limit=20`.',
        tags,
        params: idParams,
        response: { 200: successEnvelope(conversationMessages), ...errorResponses(404) },
      },
    },
    async (request) => ok(await readConversationMessages(ctx.db, currentUser(request).id, request.params.id, 'recent', ctx.config.publicUrl)),
  );

  api.get(
    CONVERSATION_EXPORT_PATH,
    {
      onRequest: auth,
      schema: {
        summary: 'My conversation as a Markdown file',
        description:
          'The title, the documents attached, and every message (all of them, not a page) with its author and time, ' +
          'as an attachment named after the title. Times are in `time_zone` (an IANA name), else UTC. Another ' +
          "person's conversation is 404.",
        tags,
        params: idParams,
        querystring: conversationExportQuery,
        response: {
          200: { description: 'The conversation as Markdown', content: { 'text/markdown': { schema: z.string().describe('Markdown') } } },
          ...errorResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      const { fileName, markdown } = await exportConversation(ctx.db, currentUser(request), request.params.id, request.query.time_zone);
      return reply
        .header('content-type', 'text/markdown; charset=utf-8')
        .header('content-disposition', contentDisposition('attachment', fileName))
        .header('x-content-type-options', 'nosniff')
        .send(markdown);
    },
  );

  api.delete(
    paths.conversation,
    {
      onRequest: auth,
      schema: {
        summary: 'Delete a conversation with its messages',
        tags,
        params: idParams,
        response: { 200: successEnvelope(messageOnly), ...errorResponses(404) },
      },
    },
    async (request) => {
      await deleteConversation(ctx, currentUser(request).id, request.params.id);
      return ok({ message: CONVERSATION_DELETED }, CONVERSATION_DELETED);
    },
  );

  api.patch(
    paths.conversationRename,
    {
      onRequest: auth,
      schema: {
        summary: 'Rename a conversation',
        tags,
        params: idParams,
        querystring: renameQuery,
        response: { 200: successEnvelope(conversation), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const renamed = await renameConversation(ctx.db, currentUser(request).id, request.params.id, request.query.title);
      return ok(renamed, CONVERSATION_RENAMED);
    },
  );

  // Refusals (400, 403, 404, 409, 429) answer as JSON before the stream opens; after that, failures are stream events.
  api.post(
    paths.messages,
    {
      onRequest: auth,
      schema: {
        summary: 'Ask a question (or edit one) and stream the reply',
        description:
          'A client that disconnects loses nothing: the reply is finished and saved on the server. ' +
          'A second question into a conversation that is still answering gets 409.',
        tags,
        body: sendMessageRequest,
        response: { 200: replyStream, ...errorResponses(400, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      // elapsedTime counts from when Fastify took the request up: the timings then show the server's own share.
      const { control, streamId } = await startSend(ctx, currentUser(request), request.body, moment() - reply.elapsedTime);
      const stream = openEventStream(reply);
      stream.send(control);
      deliverReply(ctx, stream, streamId);
    },
  );

  api.post(
    paths.messageStop,
    {
      onRequest: auth,
      schema: {
        summary: 'Stop a reply while it is written',
        description:
          'The model call is cancelled and the reply keeps the text written so far (status complete, `stopped` true); ' +
          'its stream ends with `done` as usual and the conversation takes the next question at once. ' +
          '`stopped` false: the reply had already ended. Another user\'s message is 404.',
        tags,
        params: idParams,
        response: { 200: successEnvelope(replyStopResult), ...errorResponses(404) },
      },
    },
    async (request) => ok(await stopReply(ctx, currentUser(request), request.params.id)),
  );

  api.get(
    paths.messageStream,
    {
      onRequest: auth,
      schema: {
        summary: 'Follow a reply while it is written',
        description:
          'For a second tab or a reload mid-reply, on whichever instance the request lands: the text so far as one ' +
          '`data:` delta, then the rest live, `event: error` and `event: done` as in the send stream (no control ' +
          'record). The stream may also end without `done` (the reply is not known here, or its writer stopped ' +
          'without ending it): then read the conversation. A reply that has ended is 409 `reply_not_streaming`; ' +
          "another person's is 404.",
        tags,
        params: idParams,
        response: { 200: followStream, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const id = request.params.id;
      await requireReplyToFollow(ctx.db, user.id, id);
      const stream = openEventStream(reply);
      deliverReply(ctx, stream, id);
      // A writer that died says nothing more: the saved reply, ended by the upkeep, ends the stream then.
      const watch = setInterval(() => {
        stillStreaming(ctx.db, user.id, id).then(
          (streaming) => streaming || stream.end(),
          () => stream.end(),
        );
      }, FOLLOW_CHECK_MS);
      stream.onClose(() => clearInterval(watch));
    },
  );
}

/** A reply's events onto an open stream until it ends; leaving only stops the delivery (the reply goes on). */
function deliverReply(ctx: AppContext, stream: EventStream, streamId: string): void {
  ctx.metrics.streamOpened();
  const unsubscribe = ctx.streams.subscribe(streamId, {
    onEvent: (event) => sendReplyEvent(stream, event),
    onEnd: () => stream.end(),
  });
  stream.onClose(() => {
    ctx.metrics.streamClosed();
    unsubscribe();
  });
}

function sendReplyEvent(stream: EventStream, event: ReplyEvent): void {
  if (event.type === 'delta') stream.send(event.text);
  else if (event.type === 'status') stream.send(event.status, 'status');
  else if (event.type === 'error') stream.send(event.error, 'error');
  else stream.send(event.done, 'done');
}
