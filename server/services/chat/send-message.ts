import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { StreamControl } from '../../../contract/chat-stream';
import type { Feature } from '../../../contract/features';
import type { AppContext } from '../../context';
import type { UserRecord } from '../../db/repositories/users';
import { callImageModel, type ImageCall } from './tools/image-generation';
import { buildPrompt, moment, startReply, type CallOutcome, type PreparedCall, type SendTimings } from './chat-stream';
import { requireFeatures } from '../organisation/entitlements';
import { planExchange, saveExchange, type Exchange, type ExchangePlan, type SendMessage } from './exchange';
import { callModel } from './model-call';
import { EMPTY_REPLY_CONTEXT, gatherReplyContext } from './reply-context';
import { enforceRateLimit } from '../../platform/rate-limit';
import { sendGateFor } from './send-gate';

export type { SendMessage } from './exchange';

export interface StartedSend {
  /** The stream's first record. */
  control: StreamControl;
  /** The reply to follow on ctx.streams. */
  streamId: string;
}

/** The features a send asks for: switches that are on, and more reasoning than the baseline. */
export function requestedFeatures(request: SendMessage): Feature[] {
  const features: Feature[] = [];
  if (request.browsing) features.push('browsing');
  if (request.image_generation) features.push('image_generation');
  if (request.reasoning_effort !== 'low') features.push('reasoning');
  return features;
}

/**
 * POST /chat/messages up to the stream (`receivedAt`: when the server took the request up, for the timings): every refusal (429 too many questions or the month's fair use spent, 403 a feature outside the package,
 * 404, 409) comes from here, before anything is streamed. The model is asked as soon as the send is known to be
 * allowed, and the question saved while it works on its first token; then the reply is written in the background.
 * A send with web browsing is saved and its stream opened first: searching and reading pages takes seconds, which
 * the reader spends seeing that the web is being searched (and may stop it), not a bare wait.
 */
export async function startSend(ctx: AppContext, user: UserRecord, request: SendMessage, receivedAt?: number): Promise<StartedSend> {
  const timings: SendTimings = { received: receivedAt, start: moment() };
  // The database work of a send is done a few sends at a time (see send-gate.ts); a send past its first step goes first.
  const gate = sendGateFor(ctx.db);
  const plan = await gate.run(async () => {
    await enforceRateLimit(ctx.rateLimits, `messages:user:${user.id}`, ctx.config.rateLimits.messagesPerUser, 'messages');
    timings.rateLimit = moment();
    await requireFeatures(ctx.db, user, requestedFeatures(request));
    await ctx.fairUse.require(user.client_id);
    timings.entitlements = moment();
    return planExchange(ctx.db, user, request, ctx.config.llm.historyTokens);
  });
  timings.plan = moment();

  if (request.browsing) {
    const exchange = await gate.run(() => saveExchange(ctx, user, request, plan), true);
    timings.exchange = moment();
    const saved = savedPlan(plan, exchange, request);
    const streamId = startReply(ctx, {
      user,
      exchange,
      timings,
      prepare: { activity: 'searching_web', run: (signal) => prepareCall(ctx, user, request, saved, timings, signal) },
    });
    return started(exchange, streamId);
  }

  const { call, context, image } = await prepareCall(ctx, user, request, plan, timings, ctx.closing);
  // The request must be on its way first: the saves below may block it (SQLite is synchronous). The model client says
  // when it has handed the request on (the openai SDK takes a few turns of the event loop to get there), and undici
  // writes its body in the turn after that.
  if (call.ok) {
    await call.call.sent;
    await yieldToLoop();
  }
  let exchange;
  try {
    exchange = await gate.run(() => saveExchange(ctx, user, request, plan), true);
  } catch (err) {
    if (call.ok) call.call.cancel();
    throw err;
  }
  timings.exchange = moment();
  // A new chat's conversation exists only now: the image is stored as its file once it is generated.
  image?.storeIn(exchange.conversation.id);
  return started(exchange, startReply(ctx, { user, exchange, call, timings, context }));
}

function started(exchange: Exchange, streamId: string): StartedSend {
  return {
    control: {
      conversation_id: exchange.conversation.id,
      message_id: exchange.reply.id,
      user_message_id: exchange.userMessage.id,
    },
    streamId,
  };
}

/**
 * The plan as it stands once the exchange is saved: a new chat has its conversation now, and the files attached on
 * the new-chat screen are in it (retrieval finds them by the conversation, no longer as unattached files).
 */
function savedPlan(plan: ExchangePlan, exchange: Exchange, request: SendMessage): ExchangePlan {
  const attached = plan.conversation === null && request.document_ids.length > 0;
  return { ...plan, conversation: exchange.conversation, hasDocuments: plan.hasDocuments || attached };
}

/**
 * The reply's context (documents' passages, web pages), then the model asked with it. Never rejects: a failure
 * to build the call (a bug) comes back as the outcome, and the reply reports it on its stream.
 */
async function prepareCall(
  ctx: AppContext,
  user: UserRecord,
  request: SendMessage,
  plan: ExchangePlan,
  timings: SendTimings,
  signal: AbortSignal,
): Promise<PreparedCall & { image?: ImageCall }> {
  let context = EMPTY_REPLY_CONTEXT;
  try {
    // An image request's reply is the image: no passages or pages go with it, nothing is written around it.
    if (request.image_generation) {
      timings.context = moment();
      const image = callImageModel(ctx, user, request.message);
      timings.modelCalled = moment();
      return { call: { ok: true, call: image }, context, image };
    }
    context = await gatherReplyContext(ctx, user, plan, request, signal);
    timings.context = moment();
    // Stopped or shutting down while the pages were read: the model is not asked only to be cut off.
    if (signal.aborted) return { call: { ok: false, error: signal.reason }, context };
    const call: CallOutcome = await sendGateFor(ctx.db).run(async () => {
      const prompt = await buildPrompt(ctx, user, plan.history, request.message, timings, context.prompt, context.images);
      return { ok: true, call: callModel(ctx, prompt, request.reasoning_effort) };
    }, true);
    timings.modelCalled = moment();
    return { call, context };
  } catch (err) {
    return { call: { ok: false, error: err }, context };
  }
}
