import { insertConversation } from '../../server/db/repositories/conversations';
import { refreshChunkStatistics, replaceDocumentChunks, searchableDocuments, searchChunksVector, type NewChunk } from '../../server/db/repositories/document-chunks';
import { updateDocument } from '../../server/db/repositories/documents';
import { inTransaction } from '../../server/db/transaction';
import { unitLength } from '../../server/services/documents/embeddings';
import { retrievePassages } from '../../server/services/chat/retrieval';
import { benchPgUrl, openIngestBench, type IngestBench } from './ingest-context';
import { prng } from './prng';

// `npm run bench -- retrieval`: one question's retrieval over a conversation holding 10,000 chunks (20 documents
// of 500 chunks of about 900 characters), with as many chunks of another user's documents around it, on SQLite and
// (with DATABASE_URL or TEST_DATABASE_URL) PostgreSQL: the documents read, full-text search, floors, per-document
// cap. Goal: under 20 ms. Vector search over the same chunks (1,536-dimension vectors, as text-embedding-3-small
// gives) is timed on its own, for when an embeddings model is configured (the question's embedding call is the
// provider's time, not counted).

export const RETRIEVAL_GOAL_MS = 20;
const DOCUMENTS = 20;
const CHUNKS_PER_DOCUMENT = 500;
const DIMENSIONS = 1536;
const QUESTIONS = 200;
const VECTOR_QUESTIONS = 20;

/** A vocabulary with a long tail (Zipf-like draws), so some words are common and most are rare, as in text. */
function words(random: () => number): string[] {
  const syllables = ['ka', 'lo', 'mi', 'ren', 'tu', 'sa', 'por', 'vek', 'di', 'an', 'ul', 'zo', 'pe', 'ri', 'gan'];
  const vocabulary: string[] = [];
  for (let i = 0; i < 5000; i++) {
    const n = 2 + Math.floor(random() * 3);
    vocabulary.push(Array.from({ length: n }, () => syllables[Math.floor(random() * syllables.length)]).join(''));
  }
  return vocabulary;
}

function zipf(random: () => number, size: number): number {
  return Math.min(size - 1, Math.floor(Math.exp(random() * Math.log(size + 1)) - 1));
}

export interface RetrievalTiming {
  backend: string;
  chunks: number;
  text: { medianMs: number; p95Ms: number; passages: number };
  vector: { medianMs: number; p95Ms: number; cancelled: number };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function seed(bench: IngestBench, conversationId: string | null, random: () => number, vocabulary: string[], vectors: boolean) {
  for (let d = 0; d < DOCUMENTS; d++) {
    const row = await bench.addDocument(`doc-${d}.pdf`, '.pdf', 'application/pdf', Buffer.from('%PDF-1.4'), conversationId);
    const chunks: NewChunk[] = Array.from({ length: CHUNKS_PER_DOCUMENT }, (_, c) => {
      const text = Array.from({ length: 130 }, () => vocabulary[zipf(random, vocabulary.length)]).join(' ');
      return {
        content: text,
        place: `page ${c + 1}`,
        embedding: vectors ? unitLength(Array.from({ length: DIMENSIONS }, () => random() - 0.5)) : null,
      };
    });
    await inTransaction(bench.ctx.db, async (trx) => {
      await replaceDocumentChunks(trx, row.id, chunks);
      await updateDocument(trx, row.id, { status: 'ready', chunk_count: chunks.length });
    });
  }
}

async function measureOne(pgUrl: string | undefined): Promise<RetrievalTiming> {
  const bench = await openIngestBench(pgUrl);
  try {
    const random = prng(7);
    const vocabulary = words(random);
    const conversation = await insertConversation(bench.ctx.db, {
      user_id: bench.userId,
      client_id: bench.clientId,
      title: 'Bench',
      // A lease long over: nothing is being answered.
      answering_until: '2000-01-01T00:00:00.000Z',
      answering_owner: null,
    });
    await seed(bench, conversation.id, random, vocabulary, true);
    // Another user's documents (not in the conversation) share the index: they must cost little and never show.
    await seed(bench, null, random, vocabulary, false);

    const { db } = bench.ctx;
    // The statistics autovacuum gathers within a minute of this many inserts; retrieval reads its common words.
    await refreshChunkStatistics(db);
    const textTimes: number[] = [];
    let passages = 0;
    for (let q = 0; q < QUESTIONS + 5; q++) {
      const question = `What does the report say about ${Array.from({ length: 3 }, () => vocabulary[zipf(random, vocabulary.length)]).join(' and ')}?`;
      const start = performance.now();
      const documents = await searchableDocuments(db, bench.userId, conversation.id, []);
      const found = await retrievePassages(bench.ctx, { userId: bench.userId, documentIds: documents.map((d) => d.id) }, question);
      // The first few warm the caches and the statement cache up.
      if (q >= 5) textTimes.push(performance.now() - start);
      passages += found.length;
    }
    const vectorTimes: number[] = [];
    let vectorCancelled = 0;
    const documents = await searchableDocuments(db, bench.userId, conversation.id, []);
    for (let q = 0; q < VECTOR_QUESTIONS + 2; q++) {
      const vector = unitLength(Array.from({ length: DIMENSIONS }, () => random() - 0.5));
      const start = performance.now();
      // PostgreSQL cancels a vector ranking past POSTGRES_VECTOR_SEARCH_MS (retrieval then uses full-text alone).
      await searchChunksVector(db, { userId: bench.userId, documentIds: documents.map((d) => d.id) }, vector, 30).catch(() => {
        vectorCancelled += 1;
      });
      if (q >= 2) vectorTimes.push(performance.now() - start);
    }
    textTimes.sort((a, b) => a - b);
    vectorTimes.sort((a, b) => a - b);
    return {
      backend: bench.backend,
      chunks: DOCUMENTS * CHUNKS_PER_DOCUMENT,
      text: { medianMs: percentile(textTimes, 0.5), p95Ms: percentile(textTimes, 0.95), passages: passages / (QUESTIONS + 5) },
      vector: { medianMs: percentile(vectorTimes, 0.5), p95Ms: percentile(vectorTimes, 0.95), cancelled: vectorCancelled },
    };
  } finally {
    await bench.close();
  }
}

export async function measureRetrieval(): Promise<RetrievalTiming[]> {
  const url = benchPgUrl();
  const results = [await measureOne(undefined)];
  if (url) results.push(await measureOne(url));
  else console.log('\n(PostgreSQL skipped: set DATABASE_URL or TEST_DATABASE_URL to a postgres:// URL)');
  return results;
}

export function printRetrieval(results: RetrievalTiming[]): void {
  console.log(`\nRetrieval for one question over a conversation of ${(DOCUMENTS * CHUNKS_PER_DOCUMENT).toLocaleString('en-US')} chunks (another user's ${(DOCUMENTS * CHUNKS_PER_DOCUMENT).toLocaleString('en-US')} beside them):`);
  for (const r of results) {
    // Judged on the median, like the other benches' goals; the p95 is printed beside it (questions whose every word
    // is common rank thousands of passages).
    const verdict = r.text.medianMs < RETRIEVAL_GOAL_MS ? 'ok' : 'OVER';
    console.log(
      `  ${r.backend}: full-text retrieval median ${r.text.medianMs.toFixed(1)} ms, p95 ${r.text.p95Ms.toFixed(1)} ms — goal under ${RETRIEVAL_GOAL_MS} ms  ${verdict}  (${r.text.passages.toFixed(1)} passages a question, ${QUESTIONS} questions)`,
    );
    console.log(
      `    vector search alone (${DIMENSIONS} dimensions, ${VECTOR_QUESTIONS} questions): median ${r.vector.medianMs.toFixed(1)} ms, p95 ${r.vector.p95Ms.toFixed(1)} ms${r.vector.cancelled ? ` (${r.vector.cancelled} cancelled at the time limit: full-text only)` : ''}`,
    );
  }
}
