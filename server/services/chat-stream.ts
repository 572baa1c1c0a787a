import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { type ReasoningEffort, type StreamError, type sendMessageRequest } from '../../contract/chat';
import { CONVERSATION_BUSY, DEFAULT_CONVERSATION_TITLE, UNKNOWN_STREAM_ERROR } from '../../contract/chat-constants';
import { errorMarker, type ErrorMarkerType } from '../../contract/markers';
import type { AppContext } from '../context';
import type { Database } from '../db/database';
import {
  insertConversation,
  releaseAnsweringLease,
  takeAnsweringLease,
  touchConversation,
  type ConversationRecord,
} from '../db/repositories/conversations';
import {
  deleteMessagesAfter,
  finishReply,
  findOwnUserMessage,
  insertMessage,
  listLatestMessages,
  markInterruptedReplies,
  updateMessage,
  type MessageRecord,
} from '../db/repositories/messages';
import type { UserRecord } from '../db/repositories/users';
import { isoFromNow } from '../db/timestamps';
import { inTransaction } from '../db/transaction';
import { describeError, LlmCallError, type ChatChunk, type ChatTurn, type TokenUsage } from '../llm/types';
import { MESSAGE_NOT_FOUND, requireOwnConversation, withoutErrorMarkers } from './chat';
import { ConflictError, NotFoundError } from './errors';
import { composeSystemPrompt } from './system-prompt';
import { neutraliseForeignMarkers } from './marker-safety';
import { makeTitle } from './titles';
import { LEASE_MS, newLeaseOwner, REPLY_INTERRUPTED } from './reply-leases';
import { replyWriterFor } from './reply-writer';
import { countTurnTokens, recordModelCall, resolveUsage } from './usage';

/** Earlier messages read for the history; the token budget (LLM_HISTORY_TOKENS) usually stops sooner. */
const HISTORY_MAX_MESSAGES = 200;

export const LLM_FAILED = 'The AI model could not answer just now. Please try again in a moment.';
export const MAX_TOKENS_REACHED =
  'The reply stopped because it reached the maximum length. Ask me to continue, or ask a shorter question.';
export const CONTENT_FILTERED = "The model provider's content filter stopped this reply.";

export type SendMessage = z.output<typeof sendMessageRequest>;

/** The rows a send has written before any model is called. */
export interface Exchange {
  conversation: ConversationRecord;
  userMessage: MessageRecord;
  /** The assistant's message, 'streaming' and empty until the reply is written into it. */
  reply: MessageRecord;
  /** The answering lease's owner string (unique per lease), which renewing and releasing it require. */
  lease: string;
}

/**
 * Everything that can refuse a send (404, 409) happens here, before a stream starts. Takes the conversation's
 * answering lease and saves the user's message (new or edited, later messages dropped) and an empty reply.
 */
export async function startExchange(ctx: AppContext, user: UserRecord, request: SendMessage): Promise<Exchange> {
  const lease = { until: isoFromNow(LEASE_MS), owner: newLeaseOwner() };
  if (request.conversation_id === null) {
    if (request.message_id_to_edit !== null) throw new NotFoundError(MESSAGE_NOT_FOUND);
    return inTransaction(ctx.db, async (trx) => {
      const conversation = await insertConversation(trx, {
        user_id: user.id,
        client_id: user.client_id,
        title: DEFAULT_CONVERSATION_TITLE,
        answering_until: lease.until,
        answering_owner: lease.owner,
      });
      const userMessage = await insertUserMessage(trx, conversation.id, user.id, request.message);
      return { conversation, userMessage, reply: await insertReply(trx, conversation.id, user.id), lease: lease.owner };
    });
  }

  const conversation = await requireOwnConversation(ctx.db, user.id, request.conversation_id);
  // The lease is taken in the same transaction as the writes (one commit, and a refused edit leaves it free).
  return inTransaction(ctx.db, async (trx) => {
    if (!(await takeAnsweringLease(trx, user.id, conversation.id, new Date().toISOString(), lease))) {
      throw new ConflictError(CONVERSATION_BUSY, 'conversation_busy');
    }
    // The lease was free, so a reply still marked 'streaming' belongs to an instance that died mid-way.
    await markInterruptedReplies(trx, conversation.id, errorMarker('llm', REPLY_INTERRUPTED));
    let userMessage: MessageRecord;
    if (request.message_id_to_edit !== null) {
      const edited = await findOwnUserMessage(trx, user.id, conversation.id, request.message_id_to_edit);
      if (!edited) throw new NotFoundError(MESSAGE_NOT_FOUND);
      await updateMessage(trx, edited.id, { content: request.message });
      await deleteMessagesAfter(trx, conversation.id, edited.seq);
      userMessage = { ...edited, content: request.message };
    } else {
      userMessage = await insertUserMessage(trx, conversation.id, user.id, request.message);
    }
    const reply = await insertReply(trx, conversation.id, user.id);
    await touchConversation(trx, conversation.id);
    return { conversation, userMessage, reply, lease: lease.owner };
  });
}

function insertUserMessage(db: Kysely<Database>, conversationId: string, userId: string, content: string) {
  return insertMessage(db, { conversation_id: conversationId, user_id: userId, sender: 'user', content, status: 'complete' });
}

function insertReply(db: Kysely<Database>, conversationId: string, userId: string) {
  return insertMessage(db, { conversation_id: conversationId, user_id: userId, sender: 'Assistant', content: '', status: 'streaming' });
}

export interface ReplyJob {
  user: UserRecord;
  exchange: Exchange;
  reasoningEffort: ReasoningEffort;
  /** Filled in up to the model's first chunk, then logged at debug level (the first-token bench reads it). */
  timings?: SendTimings;
}

/** When each step of a send ended, in ms since the epoch: comparable between processes on one host. */
export type SendTimings = Partial<
  Record<'start' | 'rateLimit' | 'entitlements' | 'exchange' | 'systemPrompt' | 'history' | 'tokens' | 'modelCalled' | 'firstChunk', number>
>;

export const moment = () => performance.timeOrigin + performance.now();

/**
 * Starts writing the reply as a background task, independent of the request that asked for it: a client
 * that disconnects loses nothing. Returns the id of the stream to follow on ctx.streams.
 */
export function startReply(ctx: AppContext, job: ReplyJob): string {
  const streamId = job.exchange.reply.id;
  ctx.streams.open(streamId);
  ctx.background.run('chat reply', () => writeReply(ctx, job, streamId));
  return streamId;
}

async function writeReply(ctx: AppContext, job: ReplyJob, streamId: string): Promise<void> {
  const { user, exchange } = job;
  const { conversation, reply } = exchange;
  const log = ctx.log.child({ conversationId: conversation.id, messageId: reply.id });
  const writer = replyWriterFor(ctx.db, ctx.log);
  writer.holdLease(conversation.id, exchange.lease);
  let started = 0;

  let content = '';
  /** The model's own text (without markers added here): what the completion tokens count. */
  let modelText = '';
  let prompt: ChatTurn[] = [];
  let finish: Extract<ChatChunk, { type: 'finish' }> | undefined;
  let source = ctx.llm.source;
  let failure: StreamError | undefined;
  const emit = (text: string) => {
    content += text;
    ctx.streams.publish(streamId, { type: 'delta', text });
    writer.save(reply.id, content);
  };
  const appendMarker = (type: ErrorMarkerType, text: string) => emit(`${content ? '\n\n' : ''}${errorMarker(type, text)}`);
  const timings = job.timings ?? {};

  try {
    prompt = await buildPrompt(ctx, user, exchange, timings);
    started = performance.now();
    timings.modelCalled = moment();
    try {
      const chunks = ctx.llm.stream({
        messages: prompt,
        reasoningEffort: job.reasoningEffort,
        maxTokens: ctx.config.llm.maxTokens,
        signal: ctx.closing,
      });
      for await (const chunk of chunks) {
        if (chunk.type === 'finish') {
          finish = chunk;
          source = chunk.source;
        } else {
          modelText += chunk.text;
          emit(chunk.text);
          if (timings.firstChunk === undefined) {
            timings.firstChunk = moment();
            log.debug({ timings }, 'reply timings');
          }
        }
      }
    } catch (err) {
      // Anything else thrown while streaming (a bug, an abort at shutdown) is not the provider's failure.
      if (!(err instanceof LlmCallError)) throw err;
      source = err.source;
      log.warn({ err: describeError(err) }, 'model call failed');
      failure = { type: 'llm', message: LLM_FAILED };
      appendMarker('llm', LLM_FAILED);
    }
    if (finish?.finishReason === 'length') appendMarker('max-tokens', MAX_TOKENS_REACHED);
    if (finish?.finishReason === 'filtered') appendMarker('llm', CONTENT_FILTERED);
  } catch (err) {
    log.error({ err: describeError(err) }, 'writing a reply failed');
    failure = { type: 'unknown', message: UNKNOWN_STREAM_ERROR };
    appendMarker('llm', UNKNOWN_STREAM_ERROR);
  }

  // Saved and released before `done` goes out, so a client acting on `done` finds the reply final and can send again.
  const status = failure ? 'error' : 'complete';
  writer.discard(reply.id);
  writer.releaseLease(exchange.lease);
  // One transaction: one commit (and on PostgreSQL one round trip fewer) for every reply that ends.
  await attempt(log, 'saving the reply and releasing the answering lease', () =>
    inTransaction(ctx.db, async (trx) => {
      // The stored reply is what every later reader gets: markers pointing at other origins become links.
      await finishReply(trx, reply.id, neutraliseForeignMarkers(content, ctx.config.publicUrl), status);
      await releaseAnsweringLease(trx, conversation.id, exchange.lease, true);
    }),
  );

  const usage: TokenUsage =
    finish || modelText ? resolveUsage(finish?.usage ?? null, prompt, modelText) : { prompt_tokens: 0, completion_tokens: 0 };
  // An empty prompt: the failure came before any model was called, so nothing was spent.
  if (prompt.length > 0) {
    await attempt(log, 'recording usage', () =>
      recordModelCall(ctx, {
        user,
        conversationId: conversation.id,
        messageId: reply.id,
        purpose: 'reply',
        source,
        usage,
        durationMs: performance.now() - started,
      }),
    );
  }

  if (failure) ctx.streams.publish(streamId, { type: 'error', error: failure });
  ctx.streams.publish(streamId, { type: 'done', done: { message_id: reply.id, usage } });
  ctx.streams.close(streamId);

  // The first exchange (the reply is message 2) names the conversation.
  if (status === 'complete' && reply.seq === 2 && conversation.title === DEFAULT_CONVERSATION_TITLE) {
    ctx.background.run('conversation title', () => makeTitle(ctx, user, conversation.id, reply.id));
  }
}

/** System prompt, then as much recent history as the token budget allows (newest kept), then the question. */
async function buildPrompt(ctx: AppContext, user: UserRecord, exchange: Exchange, timings: SendTimings): Promise<ChatTurn[]> {
  const system = await composeSystemPrompt(ctx.db, { user, now: new Date() });
  timings.systemPrompt = moment();
  const earlier = await listLatestMessages(ctx.db, exchange.conversation.id, HISTORY_MAX_MESSAGES, exchange.userMessage.seq);
  timings.history = moment();
  const history: ChatTurn[] = [];
  let budget = ctx.config.llm.historyTokens;
  for (const message of earlier.reverse()) {
    // Unfinished or failed replies are not something the model said.
    if (message.sender === 'Assistant' && message.status !== 'complete') continue;
    const turn: ChatTurn = {
      role: message.sender === 'user' ? 'user' : 'assistant',
      content: message.sender === 'user' ? message.content : withoutErrorMarkers(message.content),
    };
    if (!turn.content) continue;
    budget -= countTurnTokens(turn);
    if (budget < 0) break;
    history.unshift(turn);
  }
  timings.tokens = moment();
  return [{ role: 'system', content: system }, ...history, { role: 'user', content: exchange.userMessage.content }];
}

/** Book-keeping after the reply must not stop the stream from ending: failures are logged, not thrown. */
async function attempt(log: FastifyBaseLogger, what: string, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (err) {
    log.error({ err: describeError(err) }, `${what} failed`);
  }
}
