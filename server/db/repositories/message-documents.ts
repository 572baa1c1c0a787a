import type { Kysely } from 'kysely';
import type { Database } from '../database';
import { isoNow } from '../timestamps';

/**
 * Marks the files a question carried: the user's own documents in its conversation, named in the send's
 * document_ids and not carried by another message yet (a file goes with one question). Other ids are passed over.
 */
export async function markCarriedDocuments(
  db: Kysely<Database>,
  input: { userId: string; conversationId: string; messageId: string; documentIds: readonly string[] },
): Promise<void> {
  if (input.documentIds.length === 0) return;
  await db
    .updateTable('documents')
    .set({ message_id: input.messageId, updated_at: isoNow() })
    .where('id', 'in', [...input.documentIds])
    .where('user_id', '=', input.userId)
    .where('conversation_id', '=', input.conversationId)
    .where('message_id', 'is', null)
    .execute();
}

export interface CarriedDocumentRow {
  id: string;
  message_id: string;
  filename: string;
  mime: string;
  size: number;
}

/** The files the given messages carried, oldest first (by the message_id index). */
export async function listCarriedDocuments(db: Kysely<Database>, messageIds: readonly string[]): Promise<CarriedDocumentRow[]> {
  if (messageIds.length === 0) return [];
  const rows = await db
    .selectFrom('documents')
    .select(['id', 'message_id', 'filename', 'mime', 'size', 'created_at'])
    .where('message_id', 'in', [...messageIds])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(({ created_at: _, message_id, ...row }) => ({ ...row, message_id: message_id as string }));
}
