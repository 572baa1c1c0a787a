import type { FastifyBaseLogger } from 'fastify';
import type { StreamActivity, StreamError } from '../../../contract/chat-stream';
import { DEFAULT_CONVERSATION_TITLE, UNKNOWN_STREAM_ERROR } from '../../../contract/chat-constants';
import { errorMarker, type ErrorMarkerType } from '../../../shared/markers';
import type { AppContext } from '../../context';
import { releaseAnsweringLease } from '../../db/repositories/conversations';
import { finishReply, type MessageRecord } from '../../db/repositories/messages';
import type { UserRecord } from '../../db/repositories/users';
import { inTransaction } from '../../db/transaction';
import { describeError, LlmCallError, type ChatChunk, type ChatTurn, type ImagePart, type TokenUsage } from '../../llm/types';
import { withoutErrorMarkers } from './chat';
import type { Exchange } from './exchange';
import { neutraliseForeignMarkers } from './marker-safety';
import type { ModelCall } from './model-call';
import type { ReplyContext } from './reply-context';
import { composeSystemPrompt } from '../organisation/system-prompt';
import { requestTitle } from './titles';
import { REPLY_INTERRUPTED } from './reply-leases';
import { sendGateFor } from './send-gate';
import { countTurnTokens, recordModelCall, resolveUsage } from './usage';

export const LLM_FAILED = 'The AI model could not answer just now. Please try again in a moment.';
export const MAX_TOKENS_REACHED =
  'The reply stopped because it reached the maximum length. Ask me to continue, or ask a shorter question.';
export const CONTENT_FILTERED = "The model provider's content filter stopped this reply.";

/** The model call answering, or why none could be made (building the prompt failed: a bug). */
export type CallOutcome = { ok: true; call: ModelCall } | { ok: false; error: unknown };

export interface PreparedCall {
  call: CallOutcome;
  /** Text written before and after the model's own (tools markers, citations): see reply-context.ts. */
  context: Pick<ReplyContext, 'before' | 'after'>;
}

export type ReplyJob = {
  user: UserRecord;
  exchange: Exchange;
  /** Filled in up to the model's first chunk, then logged at debug level (the first-token bench reads it). */
  timings?: SendTimings;
} & (
  | ({ prepare?: undefined } & Partial<PreparedCall> & Pick<PreparedCall, 'call'>)
  | {
      /**
       * The call is made once the stream is open (its context takes a while: web pages): `activity` is published
       * meanwhile, and `run` is aborted when the person stops the reply or the app closes.
       */
      prepare: { activity: StreamActivity; run(signal: AbortSignal): Promise<PreparedCall> };
    }
);

/**
 * When each step of a send ended, in ms since the epoch: comparable between processes on one host. In order:
 * received (Fastify took the request up), start (headers, sign-in check, body read and validated), rateLimit, entitlements, plan (conversation and history read), context (documents, tools), systemPrompt, tokens (history counted),
 * modelCalled; then exchange (the question saved, while the model works) and firstChunk.
 */
export type SendTimings = Partial<
  Record<'received' | 'start' | 'rateLimit' | 'entitlements' | 'plan' | 'context' | 'systemPrompt' | 'tokens' | 'modelCalled' | 'exchange' | 'firstChunk', number>
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
  const writer = ctx.replies;
  writer.holdLease(conversation.id, exchange.lease);
  let outcome: CallOutcome | undefined = job.prepare ? undefined : job.call;
  let context = job.prepare ? undefined : job.context;
  const preparing = new AbortController();
  // Stopping cancels the model call (or what comes before it); the reply then ends like a finished one, with the text so far.
  const watch = ctx.replyStops.watch(reply.id, () => {
    preparing.abort();
    if (outcome?.ok) outcome.call.cancel();
  });
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
    if (job.prepare) {
      ctx.streams.publish(streamId, { type: 'status', status: { activity: job.prepare.activity } });
      const prepared = await job.prepare.run(AbortSignal.any([ctx.closing, preparing.signal]));
      // Stopped while the context was gathered: nothing of it is written, and a call made meanwhile is ended.
      if (watch.stopped && prepared.call.ok) prepared.call.call.cancel();
      if (!watch.stopped) {
        outcome = prepared.call;
        context = prepared.context;
      }
    }
    // Stopped before the model was asked: the reply ends as it is, empty.
    if (outcome !== undefined) {
      // No call: building the prompt failed (a bug); reported below like any other.
      if (!outcome.ok) throw outcome.error;
      const { call } = outcome;
      prompt = call.prompt;
      started = call.startedAt;
      let finished = false;
      if (context?.before) emit(`${context.before}\n\n`);
      try {
        for (let next = await call.first; !next.done; next = await call.chunks.next()) {
          const chunk = next.value;
          if (chunk.type === 'finish') {
            finish = chunk;
            source = chunk.source;
          } else {
            modelText += chunk.text;
            emit(chunk.text);
            if (timings.firstChunk === undefined) {
              timings.firstChunk = moment();
              ctx.metrics.modelFirstToken((performance.now() - started) / 1000);
              log.debug({ timings }, 'reply timings');
            }
          }
        }
        finished = true;
      } catch (err) {
        finished = true;
        if (!watch.stopped) {
          // Anything else thrown while streaming (a bug, an abort at shutdown) is not the provider's failure.
          if (!(err instanceof LlmCallError)) throw err;
          source = err.source;
          log.warn({ err: describeError(err) }, 'model call failed');
          failure = { type: 'llm', message: LLM_FAILED };
          appendMarker('llm', LLM_FAILED);
        }
      } finally {
        call.release();
        // Stopped early by a bug here: the model's stream (its connection) is closed too.
        if (!finished) call.chunks.return?.().catch(() => undefined);
      }
      // Citations and the like belong to a reply that ended as the model meant it to.
      if (finish && !failure && context?.after) emit(`${content ? '\n\n' : ''}${context.after}`);
      if (finish?.finishReason === 'length') appendMarker('max-tokens', MAX_TOKENS_REACHED);
      if (finish?.finishReason === 'filtered') appendMarker('llm', CONTENT_FILTERED);
    }
  } catch (err) {
    if (ctx.closing.aborted) {
      // Cut off by a shutdown after its grace period: said as a crash's interrupted replies are (reply-leases.ts).
      log.warn('a reply was cut off by the shutdown');
      failure = { type: 'unknown', message: REPLY_INTERRUPTED };
      appendMarker('llm', REPLY_INTERRUPTED);
    } else {
      log.error({ err: describeError(err) }, 'writing a reply failed');
      failure = { type: 'unknown', message: UNKNOWN_STREAM_ERROR };
      appendMarker('llm', UNKNOWN_STREAM_ERROR);
    }
  }

  // Saved and released before `done` goes out, so a client acting on `done` finds the reply final and can send again.
  const status = failure ? ('error' as const) : ('complete' as const);
  // A stop asked for after the model had finished (the reply was being saved) did not stop anything.
  const stopped = watch.stopped && !failure && !finish;
  writer.discard(reply.id);
  writer.releaseLease(exchange.lease);
  // The stored reply is what every later reader gets: markers pointing at other origins become links.
  const stored = neutraliseForeignMarkers(content, ctx.config.publicUrl);
  const usage: TokenUsage =
    finish || modelText ? resolveUsage(finish?.usage ?? null, prompt, modelText) : { prompt_tokens: 0, completion_tokens: 0 };
  const durationMs = performance.now() - started;
  if (prompt.length > 0) ctx.metrics.modelReplyEnded(durationMs / 1000);
  // Replies that end together (a burst's) save a few at a time, before any new send starts (see send-gate.ts).
  await sendGateFor(ctx.db).run(async () => {
    // One transaction: one commit (and on PostgreSQL one round trip fewer) for every reply that ends.
    await attempt(log, 'saving the reply and releasing the answering lease', () =>
      inTransaction(ctx.db, async (trx) => {
        await finishReply(trx, reply.id, stored, status, stopped);
        await releaseAnsweringLease(trx, conversation.id, exchange.lease, true);
      }),
    );
    // An empty prompt: the failure came before any model was called, so nothing was spent.
    if (prompt.length > 0) {
      await attempt(log, 'recording usage', () =>
        recordModelCall(ctx, { user, conversationId: conversation.id, messageId: reply.id, purpose: 'reply', source, usage, durationMs }),
      );
    }
  }, true);

  watch.finished(stopped);

  if (failure) ctx.streams.publish(streamId, { type: 'error', error: failure });
  ctx.streams.publish(streamId, { type: 'done', done: { message_id: reply.id, usage, stopped } });
  ctx.streams.close(streamId);

  // The next question reads this exchange back as history and counts its tokens before the model is asked: counted
  // now, while nobody waits (counts are remembered by text), that is a few tenths of a millisecond less before its
  // first token.
  for (const message of [exchange.userMessage, { ...reply, status, content: stored }]) {
    const turn = historyTurn(message);
    if (turn) countTurnTokens(turn);
  }

  // The first exchange (the reply is message 2) names the conversation, also when its reply failed or was stopped.
  if (reply.seq === 2 && conversation.title === DEFAULT_CONVERSATION_TITLE) {
    await requestTitle(ctx, user.id, conversation.id, reply.id);
  }
}

/**
 * The model's prompt: system prompt, then as much recent history as the token budget allows (newest kept), then
 * the question. `earlier`: the messages before the question, oldest first.
 */
export async function buildPrompt(
  ctx: AppContext,
  user: UserRecord,
  earlier: readonly MessageRecord[],
  question: string,
  timings: SendTimings,
  /** Further system-prompt parts for this question (retrieved passages, web sources). */
  context: readonly string[] = [],
  /** Images that go with the question (a model that takes images); none: the question is plain text, as always. */
  images: readonly ImagePart[] = [],
): Promise<ChatTurn[]> {
  const base = await composeSystemPrompt(ctx.db, { user, now: new Date() });
  const system = [base, ...context].join('\n\n');
  timings.systemPrompt = moment();
  const history: ChatTurn[] = [];
  let budget = ctx.config.llm.historyTokens;
  for (let i = earlier.length - 1; i >= 0; i--) {
    const turn = historyTurn(earlier[i]);
    if (!turn) continue;
    budget -= countTurnTokens(turn);
    if (budget < 0) break;
    history.push(turn);
  }
  history.reverse();
  timings.tokens = moment();
  const asked: ChatTurn = { role: 'user', content: images.length > 0 ? [{ type: 'text', text: question }, ...images] : question };
  return [{ role: 'system', content: system }, ...history, asked];
}

/** A stored message as the model is shown it in a later question's history, or null when it is left out. */
function historyTurn(message: Pick<MessageRecord, 'sender' | 'status' | 'content'>): ChatTurn | null {
  // Unfinished or failed replies are not something the model said.
  if (message.sender === 'Assistant' && message.status !== 'complete') return null;
  const content = message.sender === 'user' ? message.content : withoutErrorMarkers(message.content);
  return content ? { role: message.sender === 'user' ? 'user' : 'assistant', content } : null;
}

/** Book-keeping after the reply must not stop the stream from ending: failures are logged, not thrown. */
async function attempt(log: FastifyBaseLogger, what: string, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (err) {
    log.error({ err: describeError(err) }, `${what} failed`);
  }
}
