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
  renewAnsweringLease,
  takeAnsweringLease,
  touchConversation,
  type ConversationRecord,
} from '../db/repositories/conversations';
import {
  deleteMessagesAfter,
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
import { makeTitle } from './titles';
import { countTurnTokens, recordModelCall, resolveUsage } from './usage';

/** A lease outlives a crashed writer by at most this; a live writer renews it long before. */
const LEASE_MS = 120_000;
const LEASE_RENEW_MS = 30_000;
/** The reply is written to the database at most this often while it streams, and once at the end. */
const SAVE_INTERVAL_MS = 250;
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
  /** The answering lease's value, which releasing it requires. */
  lease: string;
}

/**
 * Everything that can refuse a send (404, 409) happens here, before a stream starts. Takes the conversation's
 * answering lease and saves the user's message (new or edited, later messages dropped) and an empty reply.
 */
export async function startExchange(ctx: AppContext, user: UserRecord, request: SendMessage): Promise<Exchange> {
  const lease = isoFromNow(LEASE_MS);
  if (request.conversation_id === null) {
    if (request.message_id_to_edit !== null) throw new NotFoundError(MESSAGE_NOT_FOUND);
    return inTransaction(ctx.db, async (trx) => {
      const conversation = await insertConversation(trx, {
        user_id: user.id,
        client_id: user.client_id,
        title: DEFAULT_CONVERSATION_TITLE,
        answering_until: lease,
      });
      const userMessage = await insertUserMessage(trx, conversation.id, user.id, request.message);
      return { conversation, userMessage, reply: await insertReply(trx, conversation.id, user.id), lease };
    });
  }

  const conversation = await requireOwnConversation(ctx.db, user.id, request.conversation_id);
  if (!(await takeAnsweringLease(ctx.db, user.id, conversation.id, new Date().toISOString(), lease))) {
    throw new ConflictError(CONVERSATION_BUSY, 'conversation_busy');
  }
  try {
    return await inTransaction(ctx.db, async (trx) => {
      // The lease was free, so a reply still marked 'streaming' belongs to an instance that died mid-way.
      await markInterruptedReplies(trx, conversation.id);
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
      return { conversation, userMessage, reply, lease };
    });
  } catch (err) {
    await releaseAnsweringLease(ctx.db, conversation.id, lease, false);
    throw err;
  }
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
}

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
  const saver = createReplySaver(ctx.db, reply.id, log);
  const lease = keepLease(ctx.db, conversation.id, exchange.lease, log);
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
    saver.save(content);
  };
  const appendMarker = (type: ErrorMarkerType, text: string) => emit(`${content ? '\n\n' : ''}${errorMarker(type, text)}`);

  try {
    prompt = await buildPrompt(ctx, user, exchange);
    started = performance.now();
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
  await saver.finish(content, status);
  const held = await lease.stop();
  await attempt(log, 'releasing the answering lease', () => releaseAnsweringLease(ctx.db, conversation.id, held, true));

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
async function buildPrompt(ctx: AppContext, user: UserRecord, exchange: Exchange): Promise<ChatTurn[]> {
  const system = await composeSystemPrompt(ctx.db, { user, now: new Date() });
  const earlier = await listLatestMessages(ctx.db, exchange.conversation.id, HISTORY_MAX_MESSAGES, exchange.userMessage.seq);
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
  return [{ role: 'system', content: system }, ...history, { role: 'user', content: exchange.userMessage.content }];
}

/** Writes the growing reply at most every SAVE_INTERVAL_MS, in order, and a last time with its final status. */
function createReplySaver(db: Kysely<Database>, messageId: string, log: FastifyBaseLogger) {
  let latest: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let lastWrite = 0;
  let writes = Promise.resolve();
  const flush = () => {
    timer = undefined;
    if (latest === undefined) return;
    const content = latest;
    latest = undefined;
    lastWrite = Date.now();
    writes = writes
      .then(() => updateMessage(db, messageId, { content }))
      .catch((err: unknown) => log.warn({ err: describeError(err) }, 'saving a partial reply failed'));
  };
  return {
    save(content: string) {
      latest = content;
      timer ??= setTimeout(flush, Math.max(0, lastWrite + SAVE_INTERVAL_MS - Date.now()));
    },
    async finish(content: string, status: 'complete' | 'error') {
      clearTimeout(timer);
      timer = undefined;
      latest = undefined;
      await writes;
      await attempt(log, 'saving the reply', () => updateMessage(db, messageId, { content, status }));
    },
  };
}

/** Renews the answering lease while the reply is written; stop() returns the value that releasing it needs. */
function keepLease(db: Kysely<Database>, conversationId: string, initial: string, log: FastifyBaseLogger) {
  let current = initial;
  let renewing = Promise.resolve();
  const timer = setInterval(() => {
    const next = isoFromNow(LEASE_MS);
    renewing = renewing
      .then(() => renewAnsweringLease(db, conversationId, current, next))
      .then((renewed) => {
        if (renewed) current = next;
        else log.warn('the answering lease was lost (the reply took longer than the lease without renewing)');
      })
      .catch((err: unknown) => log.warn({ err: describeError(err) }, 'renewing the answering lease failed'));
  }, LEASE_RENEW_MS);
  timer.unref();
  return {
    async stop(): Promise<string> {
      clearInterval(timer);
      await renewing;
      return current;
    },
  };
}

/** Book-keeping after the reply must not stop the stream from ending: failures are logged, not thrown. */
async function attempt(log: FastifyBaseLogger, what: string, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (err) {
    log.error({ err: describeError(err) }, `${what} failed`);
  }
}
