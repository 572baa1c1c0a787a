import type { Kysely } from 'kysely';
import type { FeedbackReceipt } from '../../contract/feedback';
import type { FeedbackLevel, FeedbackType } from '../../contract/feedback-constants';
import type { Database } from '../db/database';
import { insertFeedback } from '../db/repositories/feedback';
import type { UserRecord } from '../db/repositories/users';

export interface FeedbackInput {
  type: FeedbackType;
  /** The route's schema has required it for feedback. */
  level: FeedbackLevel | null;
  description: string | null;
}

/**
 * Stores a feedback or an issue report from anyone signed in, with their organisation (null for a superuser).
 * A report carries no rating: a level sent with one (a form that kept its default rating when switched to
 * "report") is dropped rather than refused, since nothing about the report itself is wrong.
 */
export async function submitFeedback(
  db: Kysely<Database>,
  user: Pick<UserRecord, 'id' | 'client_id'>,
  input: FeedbackInput,
): Promise<FeedbackReceipt> {
  const id = await insertFeedback(db, {
    user_id: user.id,
    client_id: user.client_id,
    type: input.type,
    level: input.type === 'report' ? null : input.level,
    description: input.description || null,
  });
  return { id };
}
