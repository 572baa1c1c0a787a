import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, ReplyRatingsTable } from '../database';
import { isoNow } from '../timestamps';

/**
 * An assistant's reply in one of the person's own conversations (messages carry their conversation's owner), or
 * undefined: another person's reply, a question, or no such message.
 */
export async function findOwnReply(db: Kysely<Database>, userId: string, messageId: string): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('messages')
    .select('id')
    .where('id', '=', messageId)
    .where('user_id', '=', userId)
    // 'Assistant', or 'assistant' as rows of the previous system say.
    .where('sender', '!=', 'user')
    .executeTakeFirst();
}

export type RatingChoice = Pick<ReplyRatingsTable, 'message_id' | 'user_id' | 'client_id' | 'rating' | 'comment'>;

/** The person's rating of the reply, new or replacing the one they gave before (with its comment). */
export async function saveRating(db: Kysely<Database>, choice: RatingChoice): Promise<void> {
  const ratedAt = isoNow();
  await db
    .insertInto('reply_ratings')
    .values({ id: randomUUID(), ...choice, rated_at: ratedAt })
    .onConflict((oc) =>
      oc.columns(['message_id', 'user_id']).doUpdateSet({ rating: choice.rating, comment: choice.comment, rated_at: ratedAt }),
    )
    .execute();
}

export async function deleteRating(db: Kysely<Database>, userId: string, messageId: string): Promise<void> {
  await db.deleteFrom('reply_ratings').where('message_id', '=', messageId).where('user_id', '=', userId).execute();
}

/** The person's ratings of these messages, by message id (a page of a conversation). */
export async function ratingsOf(
  db: Kysely<Database>,
  userId: string,
  messageIds: readonly string[],
): Promise<Map<string, ReplyRatingsTable['rating']>> {
  if (messageIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('reply_ratings')
    .select(['message_id', 'rating'])
    .where('user_id', '=', userId)
    .where('message_id', 'in', messageIds)
    .execute();
  return new Map(rows.map((r) => [r.message_id, r.rating]));
}
