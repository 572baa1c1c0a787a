import type { Kysely } from 'kysely';
import type { Database } from '../../db/database';
import { findOwnReplyStatus } from '../../db/repositories/messages';
import { ConflictError, NotFoundError } from '../errors';
import { MESSAGE_NOT_FOUND } from './chat';

/** Answered (409, code reply_not_streaming) when the reply has ended: the saved conversation holds it whole. */
export const REPLY_NOT_STREAMING = 'This reply is no longer being written. Reload the conversation to read it.';

/**
 * GET /chat/messages/{id}/stream may follow this reply: the user's own, still being written. Any other person's
 * reply is not found, as with stopping.
 */
export async function requireReplyToFollow(db: Kysely<Database>, userId: string, id: string): Promise<void> {
  const status = await findOwnReplyStatus(db, userId, id);
  if (status === undefined) throw new NotFoundError(MESSAGE_NOT_FOUND);
  if (status !== 'streaming') throw new ConflictError(REPLY_NOT_STREAMING, 'reply_not_streaming');
}

/** While followed: whether the saved reply still says it is being written (its writer may have died meanwhile). */
export async function stillStreaming(db: Kysely<Database>, userId: string, id: string): Promise<boolean> {
  return (await findOwnReplyStatus(db, userId, id)) === 'streaming';
}
