import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// Who holds a conversation's answering lease: a restarted server must tell at once whether the writer of a
// half-written reply is still alive, instead of waiting for the lease to run out.

export async function up(db: Kysely<any>): Promise<void> {
  // "<host>/<pid>/<instance>/<lease>": the process writing the reply, and which of its leases this is.
  await db.schema.alterTable('conversations').addColumn('answering_owner', 'text').execute();
  // The sweep looks for held leases among all conversations; few are held at any time.
  await db.schema.createIndex('conversations_answering_owner_idx').on('conversations').column('answering_owner').execute();
  // Replies being written, found without reading every message (a partial index: a handful of rows).
  await db.schema
    .createIndex('messages_streaming_idx')
    .on('messages')
    .column('conversation_id')
    .where(sql.ref('status'), '=', sql.lit('streaming'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('messages_streaming_idx').execute();
  await db.schema.dropIndex('conversations_answering_owner_idx').execute();
  await db.schema.alterTable('conversations').dropColumn('answering_owner').execute();
}
