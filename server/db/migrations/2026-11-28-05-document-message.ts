import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// Which question carried a file: the user message sent with it in its document_ids (issue 28: a sent message shows
// the files it carried, also after a reload). Null for files listed but never sent with a message, generated
// images, and everything uploaded before this column existed. A message removed by an edit lets go of its files.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('documents')
    .addColumn('message_id', 'text', (c) => c.references('messages.id').onDelete('set null'))
    .execute();
  // A page of messages reads its questions' files by message id.
  await db.schema.createIndex('documents_message_id_idx').on('documents').column('message_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('documents_message_id_idx').execute();
  await db.schema.alterTable('documents').dropColumn('message_id').execute();
}
