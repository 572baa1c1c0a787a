import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, MessagesTable } from '../database';
import { preparedQuery, type Slots } from '../prepared-query';
import { isoNow } from '../timestamps';

/** Without `content_length`: storage book-keeping, and a copy with changed content would carry a stale one. */
export type MessageRecord = Omit<Selectable<MessagesTable>, 'content_length'>;

/** Explicit columns: on SQLite the table also has `rid`, the search index key, which nothing else should see. */
export const MESSAGE_COLUMNS = ['id', 'conversation_id', 'user_id', 'sender', 'content', 'status', 'seq', 'created_at', 'stopped_at'] as const;

/**
 * The length stored beside a text (messages.content_length): characters as SQL's length() counts them, a
 * character outside the BMP (two UTF-16 units in JavaScript) being one, so the migration's backfill and every
 * writer agree.
 */
export function contentLength(text: string): number {
  if (!HIGH_SURROGATE.test(text)) return text.length;
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const high = text.charCodeAt(i);
    if (high < 0xd800 || high > 0xdbff) continue;
    const low = text.charCodeAt(i + 1);
    if (low >= 0xdc00 && low <= 0xdfff) {
      pairs++;
      i++;
    }
  }
  return text.length - pairs;
}
const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

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
      content_length: contentLength(input.content),
      seq: sql<number>`(select coalesce(max(seq), 0) + 1 from messages where conversation_id = ${input.conversation_id})`,
      created_at: isoNow(),
    })
    .returning(MESSAGE_COLUMNS)
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
    .select(MESSAGE_COLUMNS)
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
  const length = changes.content === undefined ? {} : { content_length: contentLength(changes.content) };
  await db
    .updateTable('messages')
    .set({ ...changes, ...length })
    .where('id', '=', id)
    .execute();
}

export async function deleteMessagesAfter(db: Kysely<Database>, conversationId: string, seq: number): Promise<void> {
  await db.deleteFrom('messages').where('conversation_id', '=', conversationId).where('seq', '>', seq).execute();
}

/**
 * Ends replies left 'streaming' by a writer that is gone: the partial text stays and `marker` (an error
 * marker saying the reply was interrupted) is appended. Only `ids` when given (the replies judged abandoned),
 * else every streaming reply of the conversation (the caller holds a fresh lease, so none is being written).
 */
export async function markInterruptedReplies(
  db: Kysely<Database>,
  conversationId: string,
  marker: string,
  ids?: readonly string[],
): Promise<void> {
  let query = db
    .updateTable('messages')
    .set({
      content: sql<string>`case when content = '' then ${marker} else content || ${`\n\n${marker}`} end`,
      // From the text itself (the row is rewritten anyway), so a length gone wrong somehow is put right here.
      content_length: sql<number>`case when content = '' then ${contentLength(marker)} else length(content) + ${contentLength(`\n\n${marker}`)} end`,
      status: 'error',
    })
    .where('conversation_id', '=', conversationId)
    .where('status', '=', 'streaming');
  if (ids) {
    if (ids.length === 0) return;
    query = query.where('id', 'in', ids);
  }
  await query.execute();
}

export interface StreamingReply {
  id: string;
  conversation_id: string;
  /** The conversation's lease as seen now. */
  answering_until: string | null;
  answering_owner: string | null;
}

/**
 * Replies still 'streaming' whose conversation's lease is gone, ran out before `now`, or is held by one of
 * `deadOwners` (processes known to have exited): nobody is writing them any more.
 */
export async function listAbandonedReplies(db: Kysely<Database>, now: string, deadOwners: readonly string[]): Promise<StreamingReply[]> {
  return db
    .selectFrom('messages as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .select(['m.id', 'm.conversation_id', 'c.answering_until', 'c.answering_owner'])
    .where('m.status', '=', 'streaming')
    .where((eb) =>
      eb.or([
        eb('c.answering_until', 'is', null),
        eb('c.answering_until', '<', now),
        ...(deadOwners.length > 0 ? [eb('c.answering_owner', 'in', deadOwners)] : []),
      ]),
    )
    .execute();
}

/** Rows per statement when many partial replies are saved at once. */
const SAVE_CHUNK = 100;

/**
 * Saves the growing text of many replies being written, in few statements. Only replies still 'streaming'
 * change: a reply already finished (or ended by the sweep as interrupted) is never overwritten by a late save.
 */
export async function saveStreamingReplies(db: Kysely<Database>, replies: ReadonlyArray<{ id: string; content: string }>): Promise<void> {
  for (let i = 0; i < replies.length; i += SAVE_CHUNK) {
    const chunk = replies.slice(i, i + SAVE_CHUNK);
    const cases = sql.join(
      chunk.map((r) => sql`when ${r.id} then ${r.content}`),
      sql` `,
    );
    const lengths = sql.join(
      chunk.map((r) => sql`when ${r.id} then ${contentLength(r.content)}`),
      sql` `,
    );
    await db
      .updateTable('messages')
      .set({ content: sql<string>`case id ${cases} else content end`, content_length: sql<number>`case id ${lengths} else content_length end` })
      .where(
        'id',
        'in',
        chunk.map((r) => r.id),
      )
      .where('status', '=', 'streaming')
      .execute();
  }
}

/**
 * The reply's final text and status, unless it was already ended (by the sweep, as interrupted). Not `stopped`:
 * a stop asked for as the reply was ending on its own is forgotten (the reply is whole).
 */
export async function finishReply(
  db: Kysely<Database>,
  id: string,
  content: string,
  status: 'complete' | 'error',
  stopped: boolean,
): Promise<boolean> {
  const result = await db
    .updateTable('messages')
    .set({ content, content_length: contentLength(content), status, ...(stopped ? {} : { stopped_at: null }) })
    .where('id', '=', id)
    .where('status', '=', 'streaming')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Oldest first. */
export async function listMessages(db: Kysely<Database>, conversationId: string): Promise<MessageRecord[]> {
  return db.selectFrom('messages').select(MESSAGE_COLUMNS).where('conversation_id', '=', conversationId).orderBy('seq').execute();
}

export interface HistoryRead {
  /** Messages at most. */
  limit: number;
  /** Characters at most, added up from the newest message back; a message that would go over it ends the read. */
  maxChars: number;
  /** Only messages before this one (an edited question); every message when omitted. */
  beforeSeq?: number;
}

/**
 * The history of a follow-up, oldest first: the newest messages the model is shown (questions and finished
 * replies; a reply cut off or still being written is left out) whose lengths, added up from the newest back,
 * stay within `maxChars`. The cut is made in SQL from the (conversation_id, seq, content_length, sender, status)
 * index alone, so only the texts that fit are read: a conversation of very long messages is not read whole on
 * every send (200 messages of 100 KB were 20 MB).
 */
export async function listHistory(db: Kysely<Database>, conversationId: string, read: HistoryRead): Promise<MessageRecord[]> {
  return historyQuery.execute(db, conversationId, read.beforeSeq ?? AFTER_EVERY_SEQ, read.limit, read.maxChars);
}

/** Above every seq: the largest PostgreSQL `integer` (the column's type). */
const AFTER_EVERY_SEQ = 2_147_483_647;

// Read before the model is asked on every follow-up: compiled once (see prepared-query.ts).
const historyQuery = preparedQuery((db, slot: Slots<[conversationId: string, beforeSeq: number, limit: number, maxChars: number]>) =>
  db
    .selectFrom((eb) =>
      eb
        .selectFrom('messages')
        .select((e) => [
          'seq',
          // Characters of this message and every newer one read (seq is unique in the conversation: no ties).
          e.fn
            .sum<number>('content_length')
            .over((over) => over.orderBy('seq', 'desc'))
            .as('chars_so_far'),
        ])
        .where('conversation_id', '=', slot(0))
        .where('seq', '<', slot(1))
        .where((e) => e.or([e('sender', '=', 'user'), e('status', '=', 'complete')]))
        .orderBy('seq', 'desc')
        .limit(slot(2))
        .as('fit'),
    )
    .innerJoin('messages as m', (join) => join.on('m.conversation_id', '=', slot(0)).onRef('m.seq', '=', 'fit.seq'))
    .select(MESSAGE_COLUMNS.map((column) => `m.${column}` as const))
    .where('fit.chars_so_far', '<=', slot(3))
    .orderBy('m.seq'),
);

export async function countMessages(db: Kysely<Database>, conversationId: string): Promise<number> {
  const { n } = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('conversation_id', '=', conversationId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * Marks the user's reply as stopped if it is still being written. 'requested': marked now; 'ended': the reply
 * exists but had already ended; 'missing': no such reply of theirs.
 */
export async function requestReplyStop(db: Kysely<Database>, userId: string, id: string): Promise<'requested' | 'ended' | 'missing'> {
  const result = await db
    .updateTable('messages')
    .set({ stopped_at: isoNow() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('sender', '=', 'Assistant')
    .where('status', '=', 'streaming')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) return 'requested';
  return (await findOwnReplyStatus(db, userId, id)) ? 'ended' : 'missing';
}

/** Those of `ids` that someone asked to stop. */
export async function listStopRequests(db: Kysely<Database>, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('messages').select('id').where('id', 'in', ids).where('stopped_at', 'is not', null).execute();
  return rows.map((r) => r.id);
}

/** The status of the user's reply `id`, or undefined when they have no such reply. */
export async function findOwnReplyStatus(db: Kysely<Database>, userId: string, id: string): Promise<MessageRecord['status'] | undefined> {
  const row = await db
    .selectFrom('messages')
    .select('status')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('sender', '=', 'Assistant')
    .executeTakeFirst();
  return row?.status;
}
