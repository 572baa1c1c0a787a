import { sql, SqliteAdapter, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// SQLite's search index (FTS5) leaves out replies still being written: their text is saved again and again while
// it streams (a thousand replies at once on a busy server), and re-indexing the whole text on every save cost
// more than the save. A reply is indexed once, when it ends (its status leaves 'streaming'). PostgreSQL's
// expression indexes are unchanged.

const TRIGGERS = ['ai', 'ad', 'au'].map((op) => `messages_fts_${op}`);

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  for (const trigger of TRIGGERS) await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  // Replies streaming right now leave the index with the text it holds for them.
  await sql`insert into messages_fts(messages_fts, rowid, content) select 'delete', rid, content from messages where status = 'streaming'`.execute(db);
  const statements = [
    `create trigger messages_fts_ai after insert on messages when new.status <> 'streaming' begin
       insert into messages_fts(rowid, content) values (new.rid, new.content);
     end`,
    `create trigger messages_fts_ad after delete on messages when old.status <> 'streaming' begin
       insert into messages_fts(messages_fts, rowid, content) values ('delete', old.rid, old.content);
     end`,
    // A partial save (streaming before and after) does not fire it at all.
    `create trigger messages_fts_au after update of content, status on messages
       when old.status <> 'streaming' or new.status <> 'streaming' begin
       insert into messages_fts(messages_fts, rowid, content) select 'delete', old.rid, old.content where old.status <> 'streaming';
       insert into messages_fts(rowid, content) select new.rid, new.content where new.status <> 'streaming';
     end`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  for (const trigger of TRIGGERS) await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  await sql`insert into messages_fts(rowid, content) select rid, content from messages where status = 'streaming'`.execute(db);
  const statements = [
    `create trigger messages_fts_ai after insert on messages begin
       insert into messages_fts(rowid, content) values (new.rid, new.content);
     end`,
    `create trigger messages_fts_ad after delete on messages begin
       insert into messages_fts(messages_fts, rowid, content) values ('delete', old.rid, old.content);
     end`,
    `create trigger messages_fts_au after update of content on messages begin
       insert into messages_fts(messages_fts, rowid, content) values ('delete', old.rid, old.content);
       insert into messages_fts(rowid, content) values (new.rid, new.content);
     end`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
