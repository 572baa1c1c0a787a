import type { Kysely } from 'kysely';
import type { ChatMessage, MessageDocument } from '../../../contract/chat';
import type { Database } from '../../db/database';
import { listCarriedDocuments } from '../../db/repositories/message-documents';

/**
 * The page's questions with the files each carried (issue 28: chips under a sent question, also after a reload).
 * One indexed read for the page; replies and questions without files are left as they are.
 */
export async function withCarriedDocuments(db: Kysely<Database>, messages: ChatMessage[]): Promise<ChatMessage[]> {
  const questions = messages.filter((m) => m.sender === 'user').map((m) => m.id);
  const rows = await listCarriedDocuments(db, questions);
  if (rows.length === 0) return messages;
  const byMessage = new Map<string, MessageDocument[]>();
  for (const { message_id, mime, ...row } of rows) {
    byMessage.set(message_id, [...(byMessage.get(message_id) ?? []), { ...row, type: mime }]);
  }
  return messages.map((m) => (byMessage.has(m.id) ? { ...m, documents: byMessage.get(m.id) } : m));
}
