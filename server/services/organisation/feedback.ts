import type { FeedbackReceipt } from '../../../contract/feedback';
import { tooManyFeedback, type FeedbackLevel, type FeedbackType } from '../../../contract/feedback-constants';
import type { AppContext } from '../../context';
import { insertFeedback } from '../../db/repositories/feedback';
import type { UserRecord } from '../../db/repositories/users';
import { enforceRateLimits } from '../../platform/rate-limit';

export interface FeedbackInput {
  type: FeedbackType;
  /** The route's schema has required it for feedback. */
  level: FeedbackLevel | null;
  description: string | null;
}

/**
 * Stores a feedback or an issue report from anyone signed in, with their organisation (null for a superuser), at
 * most FEEDBACK_RATE_LIMIT_PER_USER an hour per person (429): counted first, so a burst cannot slip through.
 * A report carries no rating: a level sent with one (a form that kept its default rating when switched to
 * "report") is dropped rather than refused, since nothing about the report itself is wrong.
 */
export async function submitFeedback(
  ctx: Pick<AppContext, 'db' | 'rateLimits' | 'config'>,
  user: Pick<UserRecord, 'id' | 'client_id'>,
  input: FeedbackInput,
): Promise<FeedbackReceipt> {
  await enforceRateLimits(ctx.rateLimits, [
    { key: `feedback:user:${user.id}`, rule: ctx.config.rateLimits.feedbackPerUser, refusal: tooManyFeedback },
  ]);
  const id = await insertFeedback(ctx.db, {
    user_id: user.id,
    client_id: user.client_id,
    type: input.type,
    level: input.type === 'report' ? null : input.level,
    description: input.description || null,
  });
  return { id };
}
