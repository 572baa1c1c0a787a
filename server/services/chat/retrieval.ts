import { documentMarker } from '../../../shared/markers';
import type { AppContext } from '../../context';
import {
  scopeHasVectors,
  searchableDocuments,
  searchChunksText,
  searchChunksVector,
  type ChunkHit,
  type ChunkScope,
  type ScopeDocument,
} from '../../db/repositories/document-chunks';
import { searchTerms } from './chat';
import { documentFileUrl } from '../documents/documents';
import { takesImages } from '../../llm/openai-compatible';
import type { ImagePart } from '../../llm/types';
import { createEmbedder } from '../documents/embeddings';
import { passagesPrompt, type PromptPassage } from '../../llm/retrieval-prompt';
import type { ReplyContext, ReplyContextSource } from './reply-context';

/** Passages that go with one question, and at most this many from any one document (others get a say too). */
export const MAX_PASSAGES = 6;
export const MAX_PER_DOCUMENT = 3;
/** The question's vector is awaited this long at most: every reply waits for it, full-text alone does without. */
const QUESTION_EMBEDDING_TIMEOUT_MS = 3_000;
/** Candidates read from each ranking before fusion. */
const CANDIDATES = 30;
/** Reciprocal rank fusion's constant (Cormack et al.): a hit's fused score is the sum of 1 / (k + rank). */
const RRF_K = 60;
/**
 * The relevance floor. Full-text: a passage scoring under this share of the best one matched only on the
 * question's side words. Vectors: under this cosine similarity a passage is not about the question, whatever
 * ranks best (real embedding models put unrelated texts at 0.0-0.2), nor under this share of the best.
 */
export const TEXT_FLOOR_RATIO = 0.3;
export const VECTOR_MIN_SIMILARITY = 0.25;
export const VECTOR_FLOOR_RATIO = 0.75;

/**
 * Words that carry no topic: left out of the full-text query, so "what is the deadline" searches "deadline".
 * English only; other languages' common words rank low anyway (bm25 weighs rare words up).
 */
const STOP_WORDS = new Set(
  ('a an and are as at be but by can could did do does for from had has have how i if in into is it its me my of on ' +
    'or our please say says said should so tell than that the their them then there these they this those to was we ' +
    'were what when where which who whom why will with would you your about any all also some such via vs').split(' '),
);

const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg']);

/** The question's search terms: letters and digits only (safe in FTS5 and tsquery syntax), side words left out. */
export function questionTerms(question: string): string[] {
  return searchTerms(question).filter((t) => !STOP_WORDS.has(t));
}

export interface Passage extends ChunkHit {
  n: number;
}

/** `report.pdf, page 3` (the name alone when the passage has no place, e.g. plain text). */
export const passageSource = (p: Pick<ChunkHit, 'filename' | 'place'>) => (p.place ? `${p.filename}, ${p.place}` : p.filename);

/**
 * The best passages for `question` among the scope's chunks: full-text ranking, fused with vector ranking when the
 * documents have vectors and an embeddings model is configured, each list cut at its relevance floor, then at most
 * MAX_PER_DOCUMENT from one document and MAX_PASSAGES in all.
 */
export async function retrievePassages(ctx: AppContext, scope: ChunkScope, question: string, signal: AbortSignal = ctx.closing): Promise<Passage[]> {
  if (scope.documentIds.length === 0) return [];
  const [text, vector] = await Promise.all([
    searchChunksText(ctx.db, scope, questionTerms(question), CANDIDATES),
    vectorHits(ctx, scope, question, signal),
  ]);
  const lists = [aboveTextFloor(text), aboveVectorFloor(vector)].filter((l) => l.length > 0);
  const fused = new Map<number, { hit: ChunkHit; score: number }>();
  for (const list of lists) {
    list.forEach((hit, rank) => {
      const entry = fused.get(hit.rid) ?? { hit, score: 0 };
      entry.score += 1 / (RRF_K + rank + 1);
      fused.set(hit.rid, entry);
    });
  }
  const ranked = [...fused.values()].sort((a, b) => b.score - a.score || a.hit.rid - b.hit.rid);
  const perDocument = new Map<string, number>();
  const out: Passage[] = [];
  for (const { hit } of ranked) {
    const taken = perDocument.get(hit.document_id) ?? 0;
    if (taken >= MAX_PER_DOCUMENT) continue;
    perDocument.set(hit.document_id, taken + 1);
    out.push({ ...hit, n: out.length + 1 });
    if (out.length === MAX_PASSAGES) break;
  }
  return out;
}

function aboveTextFloor(hits: ChunkHit[]): ChunkHit[] {
  const best = hits[0]?.score ?? 0;
  return best > 0 ? hits.filter((h) => h.score >= best * TEXT_FLOOR_RATIO) : [];
}

function aboveVectorFloor(hits: ChunkHit[]): ChunkHit[] {
  const best = hits[0]?.score ?? 0;
  return hits.filter((h) => h.score >= VECTOR_MIN_SIMILARITY && h.score >= best * VECTOR_FLOOR_RATIO);
}

/** Vector hits, when the model is configured and the documents have vectors; a failing endpoint leaves full-text alone. */
async function vectorHits(ctx: AppContext, scope: ChunkScope, question: string, signal: AbortSignal): Promise<ChunkHit[]> {
  const embeddings = ctx.config.documents.embeddings;
  if (!embeddings || !(await scopeHasVectors(ctx.db, scope))) return [];
  try {
    const [vector] = await createEmbedder(embeddings).embed([question], {
      signal,
      attempts: 1,
      timeoutMs: QUESTION_EMBEDDING_TIMEOUT_MS,
    });
    return await searchChunksVector(ctx.db, scope, vector, CANDIDATES);
  } catch (err) {
    ctx.log.warn({ reason: err instanceof Error ? err.message : 'unknown' }, 'vector search failed (the question could not be embedded, or the search took too long); full-text search only');
    return [];
  }
}

/** One document marker per source cited ([1] and [3] from the same page share one), in citation order. */
export function citationMarkers(passages: readonly Passage[]): string {
  const sources = new Map<string, { url: string; numbers: number[]; name: string }>();
  for (const p of passages) {
    const name = passageSource(p);
    const key = `${p.document_id}\n${name}`;
    const entry = sources.get(key) ?? { url: documentFileUrl(p.document_id), numbers: [], name };
    entry.numbers.push(p.n);
    sources.set(key, entry);
  }
  return [...sources.values()].map((s) => documentMarker(s.url, `${s.numbers.map((n) => `[${n}]`).join(' ')} ${s.name}`)).join('\n');
}

/** The documents a conversation has, for the model, when none of their passages matched the question. */
function noMatchPrompt(documents: readonly ScopeDocument[]): string {
  const names = documents.map((d) => d.filename).join(', ');
  return (
    `This conversation has these documents attached: ${names}. No passage of them matched the question closely, ` +
    'so none is quoted here: if the question is about them, say that you could not find it in them.'
  );
}

/** Images that go with one question (the newest of the conversation's), and the largest sent. */
export const MAX_IMAGES = 4;
const IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/** The conversation's newest images as data: URLs of their stored bytes, for a model that takes images. */
async function questionImages(ctx: AppContext, documents: readonly ScopeDocument[]): Promise<ImagePart[]> {
  const model = ctx.config.llm.primary?.model;
  if (!model || !takesImages(model, ctx.config.llm.vision)) return [];
  const images = documents.filter((d) => d.status === 'ready' && IMAGE_EXTENSIONS.has(d.extension)).slice(-MAX_IMAGES);
  const parts = await Promise.all(
    images.map(async (image): Promise<ImagePart | undefined> => {
      try {
        const bytes = await ctx.files.read(image.storage_key);
        if (bytes.length > IMAGE_MAX_BYTES) return undefined;
        return { type: 'image_url', image_url: { url: `data:${image.mime};base64,${bytes.toString('base64')}` } };
      } catch (err) {
        ctx.log.warn({ documentId: image.id, reason: err instanceof Error ? err.message : 'unknown' }, 'an image could not be read for the model');
        return undefined;
      }
    }),
  );
  return parts.filter((p): p is ImagePart => p !== undefined);
}

/**
 * The conversation's documents in a reply: the best passages join the system prompt, numbered for citation, and
 * a document marker per cited source follows the model's text; its images go with the question when the model
 * takes images. Costs one index probe when there are no documents, nothing for a new chat without attachments.
 * The send's checks (planExchange) found the conversation to be the caller's; the queries filter by the caller too.
 */
export const retrievalSource: ReplyContextSource = async (ctx, user, plan, request, signal) => {
  const conversationId = plan.conversation?.id ?? null;
  if (conversationId === null ? request.document_ids.length === 0 : !plan.hasDocuments) return undefined;
  const documents = await searchableDocuments(ctx.db, user.id, conversationId, conversationId === null ? request.document_ids : []);
  if (documents.length === 0) return undefined;
  const searchable = documents.filter((d) => d.status === 'ready' && d.chunk_count > 0 && !IMAGE_EXTENSIONS.has(d.extension));
  const [passages, images] = await Promise.all([
    retrievePassages(ctx, { userId: user.id, documentIds: searchable.map((d) => d.id) }, request.message, signal),
    questionImages(ctx, documents),
  ]);
  const context: Partial<ReplyContext> = { images };
  if (passages.length > 0) {
    context.prompt = [passagesPrompt(passages.map((p): PromptPassage => ({ n: p.n, source: passageSource(p), text: p.content })))];
    context.after = citationMarkers(passages);
  } else if (searchable.length > 0) {
    context.prompt = [noMatchPrompt(searchable)];
  }
  return context;
};
