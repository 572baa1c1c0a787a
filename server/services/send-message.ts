import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { StreamControl } from '../../contract/chat-stream';
import type { Feature } from '../../contract/features';
import type { AppContext } from '../context';
import type { UserRecord } from '../db/repositories/users';
import { callImageModel, type ImageCall } from '../tools/image-generation';
import { buildPrompt, moment, startReply, type ReplyJob, type SendTimings } from './chat-stream';
import { requireFeatures } from './entitlements';
import { planExchange, saveExchange, type SendMessage } from './exchange';
import { callModel } from './model-call';
import { EMPTY_REPLY_CONTEXT, gatherReplyContext } from './reply-context';
import { enforceRateLimit } from './rate-limit';

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
 * POST /chat/messages up to the stream (`receivedAt`: when the server took the request up, for the timings): every refusal (429 too many questions, 403 a feature outside the package,
 * 404, 409) comes from here, before anything is streamed. The model is asked as soon as the send is known to be
 * allowed, and the question saved while it works on its first token; then the reply is written in the background.
 */
export async function startSend(ctx: AppContext, user: UserRecord, request: SendMessage, receivedAt?: number): Promise<StartedSend> {
  const timings: SendTimings = { received: receivedAt, start: moment() };
  await enforceRateLimit(ctx.rateLimits, `messages:user:${user.id}`, ctx.config.rateLimits.messagesPerUser, 'messages');
  timings.rateLimit = moment();
  await requireFeatures(ctx.db, user, requestedFeatures(request));
  timings.entitlements = moment();
  const plan = await planExchange(ctx.db, user, request);
  timings.plan = moment();
  // An image request's reply is the image: no passages or pages go with it, nothing is written around it.
  const context = request.image_generation ? EMPTY_REPLY_CONTEXT : await gatherReplyContext(ctx, user, plan, request);
  timings.context = moment();

  let call: ReplyJob['call'];
  let image: ImageCall | undefined;
  try {
    if (request.image_generation) {
      image = callImageModel(ctx, user, request.message);
      call = { ok: true, call: image };
    } else {
      const prompt = await buildPrompt(ctx, user, plan.history, request.message, timings, context.prompt, context.images);
      call = { ok: true, call: callModel(ctx, prompt, request.reasoning_effort) };
    }
    timings.modelCalled = moment();
    // The request is on its way once the event loop has turned: the saves below may block it (SQLite is synchronous).
    await yieldToLoop();
  } catch (err) {
    // Reported on the stream (the exchange is still saved, the reply ends as an error): a bug, not a refusal.
    call = { ok: false, error: err };
  }

  let exchange;
  try {
    exchange = await saveExchange(ctx, user, request, plan);
  } catch (err) {
    if (call.ok) call.call.cancel();
    throw err;
  }
  timings.exchange = moment();
  // A new chat's conversation exists only now: the image is stored as its file once it is generated.
  image?.storeIn(exchange.conversation.id);
  const streamId = startReply(ctx, { user, exchange, call, timings, context });
  return {
    control: {
      conversation_id: exchange.conversation.id,
      message_id: exchange.reply.id,
      user_message_id: exchange.userMessage.id,
    },
    streamId,
  };
}
