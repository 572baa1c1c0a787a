import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// Read-only share links with their snapshots, the personal prompt library, tips, and feedback submissions.
// Tags live in their own rows (not a JSON column) so "any of these tags" and tag search are plain, indexed SQL on
// both databases; `tag_key` is the tag lower-cased by the application (SQLite's lower() folds ASCII only).

export async function up(db: Kysely<any>): Promise<void> {
  // One link per conversation (asking again returns it); the id is the unguessable part of the URL.
  await db.schema
    .createTable('shares')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('conversation_id', 'text', (c) => c.notNull().unique().references('conversations.id').onDelete('cascade'))
    // The title as it was when the snapshot was taken.
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('snapshot_at', 'text', (c) => c.notNull())
    .execute();

  // Copies, not references: the link shows the conversation as it was shared, whatever is edited or deleted later.
  await db.schema
    .createTable('shared_messages')
    .addColumn('share_id', 'text', (c) => c.notNull().references('shares.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('sender', 'text', (c) => c.notNull().check(inList('sender', ['user', 'Assistant'])))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('shared_messages_pk', ['share_id', 'seq'])
    .execute();

  await db.schema
    .createTable('prompt_library')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('prompt', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The list: one person's prompts, last changed first (id breaks ties so pages never overlap).
  await db.schema
    .createIndex('prompt_library_user_id_updated_at_idx')
    .on('prompt_library')
    .columns(['user_id', 'updated_at', 'id'])
    .execute();
  await db.schema
    .createTable('prompt_library_tags')
    .addColumn('prompt_id', 'text', (c) => c.notNull().references('prompt_library.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('tag', 'text', (c) => c.notNull())
    .addColumn('tag_key', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('prompt_library_tags_pk', ['prompt_id', 'position'])
    .execute();

  // Product content, the same for every organisation; the id is a stable slug the content file names.
  await db.schema
    .createTable('tips')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('duration', 'text', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull().check(inList('level', ['beginner', 'intermediate', 'advanced'])))
    .addColumn('persona', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('tip_tags')
    .addColumn('tip_id', 'text', (c) => c.notNull().references('tips.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('tag', 'text', (c) => c.notNull())
    .addColumn('tag_key', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('tip_tags_pk', ['tip_id', 'position'])
    .execute();

  await db.schema
    .createTable('feedback_submissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.references('clients.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull().check(inList('type', ['feedback', 'report'])))
    .addColumn('level', 'text', (c) => c.check(inList('level', ['POOR', 'BELOW_AVERAGE', 'AVERAGE', 'GOOD', 'EXCELLENT'])))
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // Read per organisation, newest first; the user index serves the cascade when a person is deleted.
  await db.schema
    .createIndex('feedback_submissions_client_id_created_at_idx')
    .on('feedback_submissions')
    .columns(['client_id', 'created_at'])
    .execute();
  await db.schema.createIndex('feedback_submissions_user_id_idx').on('feedback_submissions').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['feedback_submissions', 'tip_tags', 'tips', 'prompt_library_tags', 'prompt_library', 'shared_messages', 'shares']) {
    await db.schema.dropTable(table).execute();
  }
}

function inList(column: string, values: readonly string[]) {
  // Values are constants of this file, never user input.
  return sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);
}
