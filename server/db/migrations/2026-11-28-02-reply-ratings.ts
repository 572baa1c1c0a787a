import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// Thumbs up / down on an assistant's reply, one per person per reply, with an optional comment; the admins'
// feedback inbox reads them beside the feedback submissions. A rating goes with its reply (edited away,
// regenerated or its conversation deleted): the inbox never shows a reply its owner has removed.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reply_ratings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('message_id', 'text', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The person's organisation when they rated (null for a superuser), so the inbox reads one organisation's.
    .addColumn('client_id', 'text', (c) => c.references('clients.id').onDelete('cascade'))
    .addColumn('rating', 'text', (c) => c.notNull().check(sql.raw(`rating in ('up', 'down')`)))
    .addColumn('comment', 'text')
    // When the person last chose or changed this rating: the inbox's order.
    .addColumn('rated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('reply_ratings_message_id_user_id_key', ['message_id', 'user_id'])
    .execute();
  // The inbox's page of one organisation, newest first; the user index serves the cascade when a person is deleted.
  await db.schema.createIndex('reply_ratings_client_id_rated_at_idx').on('reply_ratings').columns(['client_id', 'rated_at']).execute();
  await db.schema.createIndex('reply_ratings_user_id_idx').on('reply_ratings').column('user_id').execute();
  // The inbox filtered to feedback or to reports: one organisation's rows of one type, newest first.
  await db.schema
    .createIndex('feedback_submissions_client_id_type_created_at_idx')
    .on('feedback_submissions')
    .columns(['client_id', 'type', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('feedback_submissions_client_id_type_created_at_idx').execute();
  await db.schema.dropTable('reply_ratings').execute();
}
