import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, MessagesTable } from '../database';
import { isoNow } from '../timestamps';

export type MessageRecord = Selectable<MessagesTable>;

/** Explicit columns: on SQLite the table also has `rid`, the search index key, which nothing else should see. */
const COLUMNS = ['id', 'conversation_id', 'user_id', 'sender', 'content', 'status', 'seq', 'created_at'] as const;

export interface NewMessage {
  conversation_id: string;
  user_id: string;
  sender: MessagesTable['sender'];
  content: string;
  status: MessagesTable['status'];
}

/**
 * Appends a message with the conversation's next `seq`. Callers hold the conversation's answering lease,
 * so no two writers append at once; the unique (conversation_id, seq) index would refuse it anyway.
 */
export async function insertMessage(db: Kysely<Database>, input: NewMessage): Promise<MessageRecord> {
  return db
    .insertInto('messages')
    .values({
      id: randomUUID(),
      ...input,
      seq: sql<number>`(select coalesce(max(seq), 0) + 1 from messages where conversation_id = ${input.conversation_id})`,
      created_at: isoNow(),
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/** A message the user wrote in that conversation (only those can be edited); undefined otherwise. */
export async function findOwnUserMessage(
  db: Kysely<Database>,
  userId: string,
  conversationId: string,
  id: string,
): Promise<MessageRecord | undefined> {
  return db
    .selectFrom('messages')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('conversation_id', '=', conversationId)
    .where('user_id', '=', userId)
    .where('sender', '=', 'user')
    .executeTakeFirst();
}

export async function updateMessage(
  db: Kysely<Database>,
  id: string,
  changes: Partial<Pick<MessagesTable, 'content' | 'status'>>,
): Promise<void> {
  await db.updateTable('messages').set(changes).where('id', '=', id).execute();
}

export async function deleteMessagesAfter(db: Kysely<Database>, conversationId: string, seq: number): Promise<void> {
  await db.deleteFrom('messages').where('conversation_id', '=', conversationId).where('seq', '>', seq).execute();
}

/** Replies left 'streaming' by an instance that died: only called while holding a fresh lease. */
export async function markInterruptedReplies(db: Kysely<Database>, conversationId: string): Promise<void> {
  await db
    .updateTable('messages')
    .set({ status: 'error' })
    .where('conversation_id', '=', conversationId)
    .where('status', '=', 'streaming')
    .execute();
}

/** Oldest first. */
export async function listMessages(db: Kysely<Database>, conversationId: string): Promise<MessageRecord[]> {
  return db.selectFrom('messages').select(COLUMNS).where('conversation_id', '=', conversationId).orderBy('seq').execute();
}

/** The newest `limit` messages before `beforeSeq` (all when omitted), returned oldest first. */
export async function listLatestMessages(
  db: Kysely<Database>,
  conversationId: string,
  limit: number,
  beforeSeq?: number,
): Promise<MessageRecord[]> {
  let query = db.selectFrom('messages').select(COLUMNS).where('conversation_id', '=', conversationId);
  if (beforeSeq !== undefined) query = query.where('seq', '<', beforeSeq);
  const newestFirst = await query.orderBy('seq', 'desc').limit(limit).execute();
  return newestFirst.reverse();
}

export async function countMessages(db: Kysely<Database>, conversationId: string): Promise<number> {
  const { n } = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('conversation_id', '=', conversationId)
    .executeTakeFirstOrThrow();
  return Number(n);
}
