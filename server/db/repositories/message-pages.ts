import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../database';
import { MESSAGE_COLUMNS, type MessageRecord } from './messages';

/** The oldest message of a page already read: the next page holds the messages before it. */
export interface PageStart {
  seq: number;
  createdAt: string;
}

export interface MessagePageRequest {
  /** Before this message; the latest messages when absent. */
  before?: PageStart;
  /** Messages at most. */
  limit: number;
  /** Stop adding older messages once the page holds this many characters (it always holds one message). */
  maxChars: number;
}

export interface MessagePage {
  /** Oldest first. */
  rows: MessageRecord[];
  /** Older messages exist before the first row. */
  hasEarlier: boolean;
}

/**
 * The messages of a conversation before `before`. While the page's start message still exists, that is
 * every message with a lower seq. An edit deletes the messages after the edited one and the next messages reuse
 * their seqs: when the start message is gone, those newer messages are told apart by being written after it.
 */
function earlierThan<O>(query: SelectQueryBuilder<Database, 'messages', O>, conversationId: string, before?: PageStart) {
  const inConversation = query.where('conversation_id', '=', conversationId);
  if (!before) return inConversation;
  return inConversation.where('seq', '<', before.seq).where((eb) =>
    eb.or([
      eb('created_at', '<=', before.createdAt),
      eb.exists(
        eb
          .selectFrom('messages as start')
          .select(sql`1`.as('one'))
          .where('start.conversation_id', '=', conversationId)
          .where('start.seq', '=', before.seq)
          .where('start.created_at', '=', before.createdAt),
      ),
    ]),
  );
}

/**
 * One page of a conversation, newest messages first, read in two steps by the (conversation_id, seq) index: the
 * sizes of the candidate rows (`limit` + 1, the extra one says whether older ones exist), then the content of
 * only those that fit `maxChars`, so a conversation of very long messages is never read (or sent) whole.
 */
export async function readMessagePage(db: Kysely<Database>, conversationId: string, request: MessagePageRequest): Promise<MessagePage> {
  const sizes = await earlierThan(db.selectFrom('messages'), conversationId, request.before)
    // The stored length: length(content) read every long text whole (SQLite walks its overflow pages).
    .select(['seq', 'content_length as chars'])
    .orderBy('seq', 'desc')
    .limit(request.limit + 1)
    .execute();
  if (sizes.length === 0) return { rows: [], hasEarlier: false };

  let taken = 0;
  let chars = 0;
  for (const row of sizes.slice(0, request.limit)) {
    if (taken > 0 && chars + Number(row.chars) > request.maxChars) break;
    taken += 1;
    chars += Number(row.chars);
  }
  const newest = sizes[0]!.seq;
  const oldest = sizes[taken - 1]!.seq;
  const rows = await earlierThan(db.selectFrom('messages'), conversationId, request.before)
    .select(MESSAGE_COLUMNS)
    .where('seq', '>=', oldest)
    .where('seq', '<=', newest)
    .orderBy('seq')
    .execute();
  return { rows, hasEarlier: sizes.length > taken };
}
