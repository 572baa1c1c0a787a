import type { AppContext } from '../../../context';
import { replaceDocumentChunks, type NewChunk } from '../../../db/repositories/document-chunks';
import { findDocument, listUnfinishedDocumentIds, updateDocument, type DocumentRecord } from '../../../db/repositories/documents';
import { inTransaction } from '../../../db/transaction';
import { JobCutOff } from '../../../platform/jobs/queue';
import { createEmbedder, EmbeddingsError } from '../embeddings';
import { transcribeAudio, TranscriptionError } from '../transcription';
import { chunkSections, type Chunk } from './chunk';
import { isExtracted } from './extract';
import { ExtractionError, extractInWorker } from './extraction-worker';
import { AUDIO_NOT_TRANSCRIBED_NOTE } from './sections';

const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg']);
const AUDIO_EXTENSIONS = new Set(['.mp3', '.m4a']);

/** Why a document failed, in words its owner can read (shown with the document). */
const couldNotRead = (reason: string) => `The file's text could not be read (${reason}).`;
const couldNotEmbed = (reason: string) => `The file's passages could not be indexed for search (${reason}).`;
const couldNotTranscribe = (reason: string) => `The recording could not be transcribed (${reason}).`;
const INGESTION_FAILED = 'The file could not be processed. Try uploading it again.';

/**
 * Ingests one document: extracts its text (in the extraction worker), chunks it, embeds the chunks when an
 * embeddings model is configured, and saves them with the document's 'ready' in one transaction. The status moves
 * 'chunking' -> 'embedding' (only with embeddings) -> 'saving' -> 'ready', or to 'failed' with a readable `error`.
 * Never throws: a failure is the row's status. A document deleted meanwhile is skipped quietly: nothing is saved
 * or logged (its chunks, if the delete came after they were saved, go with it).
 */
export async function ingestDocument(ctx: AppContext, documentId: string): Promise<void> {
  let row: DocumentRecord | undefined;
  try {
    row = await findDocument(ctx.db, documentId);
    if (!row || row.status === 'ready' || row.status === 'failed') return;
    if (IMAGE_EXTENSIONS.has(row.extension)) {
      // An image holds no text to search; it goes to the model as an image when the model takes images.
      await updateDocument(ctx.db, row.id, { status: 'ready', chunk_count: 0, error: null });
      return;
    }
    await updateDocument(ctx.db, row.id, { status: 'chunking', error: null });
    const { chunks, note } = await readChunks(ctx, row);
    // Deleted while it was read (the long part): nothing to embed or save.
    if (!(await findDocument(ctx.db, row.id))) return;

    let vectors: number[][] | null = null;
    const embeddings = ctx.config.documents.embeddings;
    if (embeddings && chunks.length > 0) {
      await updateDocument(ctx.db, row.id, { status: 'embedding' });
      vectors = await createEmbedder(embeddings).embed(
        chunks.map((c) => c.content),
        { signal: ctx.closing },
      );
    }

    await updateDocument(ctx.db, row.id, { status: 'saving' });
    const saved: NewChunk[] = chunks.map((c, i) => ({ ...c, embedding: vectors?.[i] ?? null }));
    const id = row.id;
    await inTransaction(ctx.db, async (trx) => {
      await replaceDocumentChunks(trx, id, saved);
      await updateDocument(trx, id, { status: 'ready', chunk_count: saved.length, note: note ?? null, error: null });
    });
  } catch (err) {
    // Cut off by the app closing: left as it is, so the next start resumes it.
    if (ctx.closing.aborted) return;
    // Deleted meanwhile: its file gone before it was read, or its row before the chunks that name it were saved (a
    // foreign-key error, rolled back). Nothing is wrong and nothing is left to mark.
    if (row && (await isDeleted(ctx, row.id))) return;
    const error = readableError(err);
    if (error === INGESTION_FAILED) ctx.log.error({ err, documentId }, 'ingestion failed');
    else ctx.log.warn({ documentId, reason: error }, 'a document could not be ingested');
    try {
      if (row) await updateDocument(ctx.db, row.id, { status: 'failed', error });
    } catch (updateErr) {
      ctx.log.error({ err: updateErr, documentId }, 'marking a document failed did not work');
    }
  }
}

/** The document's passages: extracted in the worker, or transcribed (audio); audio without a model gets a note. */
async function readChunks(ctx: AppContext, row: DocumentRecord): Promise<{ chunks: Chunk[]; note?: string }> {
  const bytes = await ctx.files.read(row.storage_key);
  if (AUDIO_EXTENSIONS.has(row.extension)) {
    const transcription = ctx.config.documents.transcription;
    if (!transcription) return { chunks: [], note: AUDIO_NOT_TRANSCRIBED_NOTE };
    const text = await transcribeAudio(transcription, { bytes, filename: row.filename, mime: row.mime }, ctx.closing);
    return { chunks: chunkSections([{ kind: 'text', place: 'transcript', text: text.trim() }]) };
  }
  if (!isExtracted(row.extension)) throw new ExtractionError(`${row.extension} files are not read`);
  return extractInWorker(row.extension, bytes, ctx.config.documents.extraction);
}

/** Whether the document's row is gone (a failed look-up counts as not: the failure is then reported as it is). */
async function isDeleted(ctx: AppContext, documentId: string): Promise<boolean> {
  try {
    return (await findDocument(ctx.db, documentId)) === undefined;
  } catch {
    return false;
  }
}

function readableError(err: unknown): string {
  if (err instanceof ExtractionError) return couldNotRead(err.message);
  if (err instanceof EmbeddingsError) return couldNotEmbed(err.message);
  if (err instanceof TranscriptionError) return couldNotTranscribe(err.message);
  return INGESTION_FAILED;
}

/** Ingestion as a job: one per document (a second enqueue of the same document while it has one does nothing). */
export async function queueIngestion(ctx: Pick<AppContext, 'jobs'>, documentId: string): Promise<void> {
  await ctx.jobs.enqueue('ingest-document', { documentId }, { key: `ingest-document:${documentId}` });
}

/**
 * The 'ingest-document' job. Cut off by the app closing, the document is left as it is and the job handed back, so a
 * live process (or the next start) ingests it again; a process that dies mid-way lets its lease lapse, with the same
 * outcome. Chunks are replaced as a whole, so a half-done run leaves nothing behind.
 */
export async function ingestionJob(ctx: AppContext, documentId: string): Promise<void> {
  await ingestDocument(ctx, documentId);
  if (!ctx.closing.aborted) return;
  const row = await findDocument(ctx.db, documentId);
  if (row && row.status !== 'ready' && row.status !== 'failed') throw new JobCutOff(`ingestion of ${documentId} cut off by the shutdown`);
}

/** The processes ingesting a document kept dying (a file that brings the process down): it is failed, not tried again. */
export async function ingestionGaveUp(ctx: AppContext, documentId: string): Promise<void> {
  const row = await findDocument(ctx.db, documentId);
  if (row && row.status !== 'ready' && row.status !== 'failed') await updateDocument(ctx.db, row.id, { status: 'failed', error: INGESTION_FAILED });
}

/**
 * Documents left between 'queued' and 'saving' without a job (written by a version before jobs, or a process that
 * stopped between storing the file and queueing its job) are queued again on start; those that have a job keep it.
 */
export async function resumeIngestion(ctx: Pick<AppContext, 'db' | 'jobs'>): Promise<void> {
  for (const id of await listUnfinishedDocumentIds(ctx.db)) await queueIngestion(ctx, id);
}
