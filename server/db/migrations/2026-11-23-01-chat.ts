import { SqliteAdapter, sql, type CreateTableBuilder, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// Conversations, messages, their full-text search, and the usage ledger. The tables are the same on both
// databases; only the search machinery differs (FTS5 on SQLite, tsvector + GIN on PostgreSQL).

export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;

  await withTextId(db.schema.createTable('conversations'), sqlite)
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull().defaultTo('New Conversation'))
    .addColumn('answering_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The list: one user's conversations, newest activity first (id breaks ties so pages never overlap).
  await db.schema
    .createIndex('conversations_user_id_updated_at_idx')
    .on('conversations')
    .columns(['user_id', 'updated_at', 'id'])
    .execute();

  await withTextId(db.schema.createTable('messages'), sqlite)
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('sender', 'text', (c) => c.notNull().check(inList('sender', ['user', 'Assistant'])))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(inList('status', ['complete', 'streaming', 'error'])))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('messages_conversation_id_seq_uq').on('messages').columns(['conversation_id', 'seq']).unique().execute();
  await db.schema.createIndex('messages_user_id_idx').on('messages').column('user_id').execute();

  await db.schema
    .createTable('usage_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // No foreign keys to users or conversations: deleting either must not erase what was spent.
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.references('clients.id').onDelete('cascade'))
    .addColumn('department_id', 'text')
    .addColumn('unit_id', 'text')
    .addColumn('conversation_id', 'text')
    .addColumn('message_id', 'text')
    .addColumn('purpose', 'text', (c) => c.notNull().check(inList('purpose', ['reply', 'title'])))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull())
    .addColumn('completion_tokens', 'integer', (c) => c.notNull())
    // double precision: PostgreSQL's `real` keeps 6 digits, too few for sums of fractions of a cent.
    .addColumn('cost_usd', 'double precision', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('usage_logs_client_id_created_at_idx').on('usage_logs').columns(['client_id', 'created_at']).execute();
  await db.schema.createIndex('usage_logs_user_id_created_at_idx').on('usage_logs').columns(['user_id', 'created_at']).execute();

  if (sqlite) await createSqliteSearch(db);
  else await createPostgresSearch(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    for (const table of ['messages', 'conversations']) {
      for (const op of ['ai', 'ad', 'au']) await sql.raw(`drop trigger if exists ${table}_fts_${op}`).execute(db);
      await sql.raw(`drop table if exists ${table}_fts`).execute(db);
    }
  }
  for (const table of ['usage_logs', 'messages', 'conversations']) await db.schema.dropTable(table).execute();
}

/**
 * SQLite: FTS5 external-content tables keyed by `rid`, an INTEGER PRIMARY KEY. The implicit rowid of a table
 * with a text primary key may be renumbered by VACUUM, which would silently detach the index from its rows;
 * an INTEGER PRIMARY KEY never changes. `id` stays the key everything else uses.
 * PostgreSQL: a plain text primary key.
 */
function withTextId(table: CreateTableBuilder<any, any>, sqlite: boolean): CreateTableBuilder<any, any> {
  if (!sqlite) return table.addColumn('id', 'text', (c) => c.primaryKey());
  return table.addColumn('rid', 'integer', (c) => c.primaryKey()).addColumn('id', 'text', (c) => c.notNull().unique());
}

/** unicode61 with diacritics folded; prefix queries ("kub"*) find words as they are typed. */
async function createSqliteSearch(db: Kysely<any>): Promise<void> {
  for (const [table, column] of [
    ['messages', 'content'],
    ['conversations', 'title'],
  ]) {
    const fts = `${table}_fts`;
    const statements = [
      `create virtual table ${fts} using fts5(${column}, content='${table}', content_rowid='rid', tokenize='unicode61 remove_diacritics 2')`,
      `create trigger ${fts}_ai after insert on ${table} begin
         insert into ${fts}(rowid, ${column}) values (new.rid, new.${column});
       end`,
      `create trigger ${fts}_ad after delete on ${table} begin
         insert into ${fts}(${fts}, rowid, ${column}) values ('delete', old.rid, old.${column});
       end`,
      `create trigger ${fts}_au after update of ${column} on ${table} begin
         insert into ${fts}(${fts}, rowid, ${column}) values ('delete', old.rid, old.${column});
         insert into ${fts}(rowid, ${column}) values (new.rid, new.${column});
       end`,
    ];
    // Table and column names are constants of this file, never user input.
    for (const statement of statements) await sql.raw(statement).execute(db);
  }
}

/**
 * Expression indexes: queries must use exactly `to_tsvector('simple', <column>)` to hit them. 'simple' (no
 * stemming, no stop words): conversations mix languages, and prefix matching finds words as they are typed.
 */
async function createPostgresSearch(db: Kysely<any>): Promise<void> {
  await sql`create index messages_content_search_idx on messages using gin (to_tsvector('simple', content))`.execute(db);
  await sql`create index conversations_title_search_idx on conversations using gin (to_tsvector('simple', title))`.execute(db);
}

function inList(column: string, values: readonly string[]) {
  // Values are constants of this file, never user input.
  return sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);
}
