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
 * Passages ranked at most, roughly: the question's words are searched rarest first, and words that would bring
 * the count of passages to rank above this are left out (the rarest is always kept). A word most passages hold
 * says little about which passage answers, while ranking every passage holding it cost tens of milliseconds.
 */
const RANKED_PASSAGES_BUDGET = 2_000;

/** PostgreSQL's vector ranking is cancelled after this long (ms); a question then goes on with full-text alone. */
export const POSTGRES_VECTOR_SEARCH_MS = 300;

/** The question's words to search: rarest first, within the budget. `counts`: passages holding each word. */
function withinBudget(terms: readonly string[], counts: ReadonlyMap<string, number>): string[] {
  // A word the counts do not know is rare (or, on SQLite, matches only with its accents folded): kept first.
  const byRarity = [...terms].sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0));
  const kept: string[] = [];
  let ranked = 0;
  for (const term of byRarity) {
    ranked += counts.get(term) ?? 0;
    if (kept.length > 0 && ranked > RANKED_PASSAGES_BUDGET) break;
    kept.push(term);
  }
  return kept;
}

/** SQLite: how many passages hold each word, from the index itself (fts5vocab, exact). */
async function sqliteTermCounts(db: Kysely<Database>, terms: readonly string[]): Promise<Map<string, number>> {
  const { rows } = await sql<{ term: string; doc: number }>`
    select term, doc from document_chunks_fts_terms where term in (${sql.join([...terms])})`.execute(db);
  return new Map(rows.map((r) => [r.term, Number(r.doc)]));
}

/**
 * PostgreSQL: how many passages hold each common word, estimated from the planner's statistics of the `search`
 * column (ANALYZE keeps its most common words with their share of rows; autovacuum refreshes them). Words not
 * among them are rarer than all of those. A catalog read, no scan.
 */
async function postgresTermCounts(db: Kysely<Database>): Promise<Map<string, number>> {
  const { rows } = await sql<{ elems: string[] | null; freqs: number[] | null; total: number }>`
    select s.most_common_elems::text::text[] as elems, s.most_common_elem_freqs as freqs, greatest(c.reltuples, 0) as total
    from pg_class c
    left join pg_stats s on s.schemaname = current_schema() and s.tablename = c.relname and s.attname = 'search'
    where c.oid = 'document_chunks'::regclass`.execute(db);
  const row = rows[0];
  const counts = new Map<string, number>();
  if (!row?.elems || !row.freqs) return counts;
  row.elems.forEach((term, i) => counts.set(term, Number(row.freqs![i]) * Number(row.total)));
  return counts;
}

/**
 * Full-text matches of any of `terms` (letters and digits only, see retrieval.ts, so they are safe inside the
 * FTS5 and tsquery syntax), best first: bm25 on SQLite (FTS5, every term quoted, words most passages hold left
 * out), ts_rank_cd on PostgreSQL (over the stored `search` tsvector, migration 2026-11-24-06).
 */
export async function searchChunksText(db: Kysely<Database>, scope: ChunkScope, terms: readonly string[], limit: number): Promise<ChunkHit[]> {
  if (terms.length === 0) return [];
  if (isPostgres(db)) {
    const query = withinBudget(terms, await postgresTermCounts(db)).join(' | ');
    // Matches come from the GIN index first (materialized: left to itself, the planner walked the scope's every
    // passage by document and tested each, 30 ms for 10,000); the budget above keeps them few.
    const { rows } = await sql<ChunkHit>`
      with hits as materialized (
        select c.rid, c.document_id, c.content, c.place, ts_rank_cd(c.search, to_tsquery('simple', ${query})) as score
        from document_chunks c
        where c.search @@ to_tsquery('simple', ${query})
      )
      select c.rid, c.document_id, d.filename, c.content, c.place, c.score
      from hits c
      join documents d on d.id = c.document_id
      where ${scopeWhere(scope)}
      order by c.score desc, c.rid
      limit ${limit}`.execute(db);
    return rows.map((r) => ({ ...r, score: Number(r.score) }));
  }
  const query = withinBudget(terms, await sqliteTermCounts(db, terms)).map((t) => `"${t}"`).join(' OR ');
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
    // Without pgvector this is a scan costing about 2 s at 10,000 passages of 1,536 dimensions: past the limit the
    // statement is cancelled and the caller goes on with full-text ranking alone (see retrieval.ts).
    const { rows } = await db.transaction().execute(async (trx) => {
      await sql.raw(`set local statement_timeout = ${POSTGRES_VECTOR_SEARCH_MS}`).execute(trx);
      return sql<ChunkHit>`
      select c.rid, c.document_id, d.filename, c.content, c.place,
             (select sum(a * b) from unnest(c.embedding, ${sql.val([...vector])}::real[]) as t(a, b)) as score
      from documents d
      join document_chunks c on c.document_id = d.id
      where ${scopeWhere(scope)} and c.embedding is not null and cardinality(c.embedding) = ${vector.length}
      order by score desc, c.rid
      limit ${limit}`.execute(trx);
    });
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

/** PostgreSQL: gathers the `search` column's common words now (autovacuum does within a minute of many inserts). */
export async function refreshChunkStatistics(db: Kysely<Database>): Promise<void> {
  if (isPostgres(db)) await sql`analyze document_chunks`.execute(db);
}
