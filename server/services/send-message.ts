import type { StreamControl } from '../../contract/chat';
import type { Feature } from '../../contract/features';
import type { AppContext } from '../context';
import type { UserRecord } from '../db/repositories/users';
import { moment, startExchange, startReply, type SendMessage, type SendTimings } from './chat-stream';
import { requireFeatures } from './entitlements';
import { enforceRateLimit } from './rate-limit';

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
 * POST /chat/messages up to the stream: every refusal (429 too many questions, 403 a feature outside the package,
 * 404, 409) comes from here, before anything is streamed. Then the question is saved and the reply starts
 * being written in the background.
 */
export async function startSend(ctx: AppContext, user: UserRecord, request: SendMessage): Promise<StartedSend> {
  const timings: SendTimings = { start: moment() };
  await enforceRateLimit(ctx.rateLimits, `messages:user:${user.id}`, ctx.config.rateLimits.messagesPerUser, 'messages');
  timings.rateLimit = moment();
  await requireFeatures(ctx.db, user, requestedFeatures(request));
  timings.entitlements = moment();
  const exchange = await startExchange(ctx, user, request);
  timings.exchange = moment();
  const streamId = startReply(ctx, { user, exchange, reasoningEffort: request.reasoning_effort, timings });
  return {
    control: {
      conversation_id: exchange.conversation.id,
      message_id: exchange.reply.id,
      user_message_id: exchange.userMessage.id,
    },
    streamId,
  };
}
