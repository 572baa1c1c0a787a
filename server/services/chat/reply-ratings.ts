import type { Kysely } from 'kysely';
import type { ReplyRatingResult } from '../../../contract/feedback';
import { REPLY_NOT_FOUND, type ReplyRating } from '../../../contract/feedback-constants';
import type { Database } from '../../db/database';
import { deleteRating, findOwnReply, saveRating } from '../../db/repositories/reply-ratings';
import type { UserRecord } from '../../db/repositories/users';
import { NotFoundError } from '../errors';

export interface RatingInput {
  rating: ReplyRating | null;
  comment: string | null;
}

/**
 * PUT /chat/messages/{id}/rating: the person's thumbs up or down on a reply of their own conversation, or none
 * (null clears it, with its comment). Another person's reply, a question or an unknown id answer 404 alike, so a
 * message id reveals nothing. A rating given again replaces the earlier one and its comment.
 */
export async function rateReply(
  db: Kysely<Database>,
  user: Pick<UserRecord, 'id' | 'client_id'>,
  messageId: string,
  input: RatingInput,
): Promise<ReplyRatingResult> {
  if (!(await findOwnReply(db, user.id, messageId))) throw new NotFoundError(REPLY_NOT_FOUND);
  if (input.rating === null) {
    await deleteRating(db, user.id, messageId);
    return { message_id: messageId, rating: null, comment: null };
  }
  const comment = input.comment || null;
  await saveRating(db, { message_id: messageId, user_id: user.id, client_id: user.client_id, rating: input.rating, comment });
  return { message_id: messageId, rating: input.rating, comment };
}
