import { PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../database';

// The only place that reads and writes `document_chunks`: ingestion saves them, retrieval searches them.

export interface NewChunk {
  content: string;
  place: string | null;
  /** Unit length (so cosine similarity is a dot product), or null without an embeddings model. */
  embedding: number[] | null;
}

const isPostgres = (db: Kysely<Database>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** SQLite keeps vectors as sqlite-vec's float32 little-endian blobs; PostgreSQL as real[]. */
function vectorValue(db: Kysely<Database>, vector: number[] | null): Buffer | number[] | null {
  if (vector === null) return null;
  if (isPostgres(db)) return vector;
  const blob = Buffer.alloc(vector.length * 4);
  vector.forEach((v, i) => blob.writeFloatLE(v, i * 4));
  return blob;
}

/** Rows per insert: 5 values each, well under SQLite's and PostgreSQL's limits on parameters. */
const INSERT_BATCH = 500;

/**
 * A document's chunks, replacing any it had (an ingestion interrupted by a crash runs again from the start).
 * Called inside the transaction that also marks the document ready, so a search sees all of them or none.
 */
export async function replaceDocumentChunks(trx: Transaction<Database>, documentId: string, chunks: readonly NewChunk[]): Promise<void> {
  await trx.deleteFrom('document_chunks').where('document_id', '=', documentId).execute();
  for (let start = 0; start < chunks.length; start += INSERT_BATCH) {
    const rows = chunks.slice(start, start + INSERT_BATCH).map((chunk, i) => ({
      document_id: documentId,
      seq: start + i,
      content: chunk.content,
      place: chunk.place,
      embedding: vectorValue(trx, chunk.embedding),
    }));
    await trx.insertInto('document_chunks').values(rows).execute();
  }
}

/** A passage found for a question, with the document it comes from. */
export interface ChunkHit {
  rid: number;
  document_id: string;
  filename: string;
  content: string;
  place: string | null;
  /** Higher is better: bm25 negated (SQLite), ts_rank_cd (PostgreSQL), or cosine similarity (vectors). */
  score: number;
}

/** Which documents are searched: ids the caller read with searchableDocuments; their owner is checked again. */
export interface ChunkScope {
  userId: string;
  documentIds: readonly string[];
}

function scopeWhere(scope: ChunkScope) {
  return sql`d.user_id = ${scope.userId} and d.status = 'ready' and d.id in (${sql.join([...scope.documentIds])})`;
}

/** A document a question may draw on (or, for an image, show to the model). */
export interface ScopeDocument {
  id: string;
  filename: string;
  extension: string;
  mime: string;
  storage_key: string;
  status: string;
  chunk_count: number;
}

/**
 * The documents of the user's conversation, or (a new chat, no conversation yet) the user's documents among
 * `documentIds` that belong to no conversation: what a question draws on. Both by the (user_id, conversation_id)
 * index, so a conversation without documents costs one index probe.
 */
export async function searchableDocuments(
  db: Kysely<Database>,
  userId: string,
  conversationId: string | null,
  documentIds: readonly string[],
): Promise<ScopeDocument[]> {
  const base = db
    .selectFrom('documents')
    .select(['id', 'filename', 'extension', 'mime', 'storage_key', 'status', 'chunk_count'])
    .where('user_id', '=', userId);
  if (conversationId !== null) return base.where('conversation_id', '=', conversationId).orderBy('created_at').execute();
  if (documentIds.length === 0) return [];
  return base.where('conversation_id', 'is', null).where('id', 'in', [...documentIds]).orderBy('created_at').execute();
}

/**
 * Full-text matches of any of `terms` (letters and digits only, see retrieval.ts, so they are safe inside the
 * FTS5 and tsquery syntax), best first: bm25 on SQLite (FTS5, every term quoted), ts_rank_cd on PostgreSQL
 * (written as the GIN index's expression, to_tsvector('simple', content)).
 */
export async function searchChunksText(db: Kysely<Database>, scope: ChunkScope, terms: readonly string[], limit: number): Promise<ChunkHit[]> {
  if (terms.length === 0) return [];
  if (isPostgres(db)) {
    const query = terms.join(' | ');
    const { rows } = await sql<ChunkHit>`
      select c.rid, c.document_id, d.filename, c.content, c.place,
             ts_rank_cd(to_tsvector('simple', c.content), q.query) as score
      from documents d
      join document_chunks c on c.document_id = d.id
      cross join (select to_tsquery('simple', ${query}) as query) q
      where ${scopeWhere(scope)} and to_tsvector('simple', c.content) @@ q.query
      order by score desc, c.rid
      limit ${limit}`.execute(db);
    return rows.map((r) => ({ ...r, score: Number(r.score) }));
  }
  const query = terms.map((t) => `"${t}"`).join(' OR ');
  const { rows } = await sql<ChunkHit>`
    select c.rid, c.document_id, d.filename, c.content, c.place, -bm25(document_chunks_fts) as score
    from document_chunks_fts f
    join document_chunks c on c.rid = f.rowid
    join documents d on d.id = c.document_id
    where document_chunks_fts match ${query} and ${scopeWhere(scope)}
    order by score desc, c.rid
    limit ${limit}`.execute(db);
  return rows;
}

/**
 * The chunks nearest to `vector` (unit length) by cosine similarity, among the scope's chunks only. SQLite:
 * sqlite-vec's vec_distance_cosine over the float32 blobs. PostgreSQL (no pgvector in Debian 12's packages): the
 * dot product of the real[] arrays computed in SQL, so no vectors travel to the server; it is a scan of the
 * conversation's chunks, which the scope keeps to one conversation's documents (thousands of rows at most).
 */
export async function searchChunksVector(db: Kysely<Database>, scope: ChunkScope, vector: readonly number[], limit: number): Promise<ChunkHit[]> {
  if (isPostgres(db)) {
    const { rows } = await sql<ChunkHit>`
      select c.rid, c.document_id, d.filename, c.content, c.place,
             (select sum(a * b) from unnest(c.embedding, ${sql.val([...vector])}::real[]) as t(a, b)) as score
      from documents d
      join document_chunks c on c.document_id = d.id
      where ${scopeWhere(scope)} and c.embedding is not null and cardinality(c.embedding) = ${vector.length}
      order by score desc, c.rid
      limit ${limit}`.execute(db);
    return rows.map((r) => ({ ...r, score: Number(r.score) }));
  }
  const blob = vectorValue(db, [...vector]);
  const { rows } = await sql<ChunkHit>`
    select c.rid, c.document_id, d.filename, c.content, c.place, 1 - vec_distance_cosine(c.embedding, ${blob}) as score
    from documents d
    join document_chunks c on c.document_id = d.id
    where ${scopeWhere(scope)} and c.embedding is not null and length(c.embedding) = ${vector.length * 4}
    order by score desc, c.rid
    limit ${limit}`.execute(db);
  return rows;
}

/** Whether any of the scope's ready documents has vectors (else the question is not embedded at all). */
export async function scopeHasVectors(db: Kysely<Database>, scope: ChunkScope): Promise<boolean> {
  const { rows } = await sql<{ one: number }>`
    select 1 as one from documents d
    where ${scopeWhere(scope)}
      and exists (select 1 from document_chunks c where c.document_id = d.id and c.embedding is not null)
    limit 1`.execute(db);
  return rows.length > 0;
}
