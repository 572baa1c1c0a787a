import { SqliteAdapter, sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// Retrieval over a conversation of 10,000 passages took 73 ms (SQLite) and 547 ms (PostgreSQL) for a question with
// common words: PostgreSQL parsed every matching passage again (to_tsvector) to rank it, and SQLite ranked every
// passage holding any common word. PostgreSQL now keeps each passage's tsvector; SQLite gets a view of its index's
// terms with the number of passages holding each, so retrieval can leave out words most passages hold.

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql`create virtual table document_chunks_fts_terms using fts5vocab(document_chunks_fts, 'row')`.execute(db);
    return;
  }
  await sql`alter table document_chunks add column search tsvector generated always as (to_tsvector('simple', content)) stored`.execute(db);
  await sql`create index document_chunks_search_idx on document_chunks using gin (search)`.execute(db);
  await sql`drop index document_chunks_content_search_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql`drop table document_chunks_fts_terms`.execute(db);
    return;
  }
  await sql`create index document_chunks_content_search_idx on document_chunks using gin (to_tsvector('simple', content))`.execute(db);
  await sql`drop index document_chunks_search_idx`.execute(db);
  await sql`alter table document_chunks drop column search`.execute(db);
}
