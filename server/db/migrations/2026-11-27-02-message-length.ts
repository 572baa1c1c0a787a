import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// Each message's length in characters (code points), kept by every writer of `content`. The history sent with a
// follow-up is cut at a size budget: worked out from length(content) that read every long message whole (SQLite
// walks a row's overflow pages; 9-26 ms for 200 messages of 100 KB), while this index alone decides the cut.
// `sender` and `status` are in it too: the history leaves out replies that did not finish, and reading them from
// the row would mean walking its overflow pages again (they are stored after `content`).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('messages')
    .addColumn('content_length', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // length() counts characters on both databases (never bytes), as the writers do.
  await sql`update messages set content_length = length(content)`.execute(db);
  await db.schema
    .createIndex('messages_conversation_id_seq_length_idx')
    .on('messages')
    .columns(['conversation_id', 'seq', 'content_length', 'sender', 'status'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('messages_conversation_id_seq_length_idx').execute();
  await db.schema.alterTable('messages').dropColumn('content_length').execute();
}
