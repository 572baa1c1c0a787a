import type { Kysely } from 'kysely';
import type { Database } from '../../db/database';
import { findOwnConversation, type ConversationRecord } from '../../db/repositories/conversations';
import { NotFoundError } from '../errors';

// Whose conversation is whose: below chat/ and documents/, which both act on a person's own conversations.

export const CONVERSATION_NOT_FOUND = 'Conversation not found';

/** Another user's conversation answers exactly like one that does not exist: its id reveals nothing. */
export async function requireOwnConversation(db: Kysely<Database>, userId: string, id: string): Promise<ConversationRecord> {
  const conversation = await findOwnConversation(db, userId, id);
  if (!conversation) throw new NotFoundError(CONVERSATION_NOT_FOUND);
  return conversation;
}
