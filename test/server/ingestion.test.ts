import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentView } from '../../contract/documents';
import { insertDocument } from '../../server/db/repositories/documents';
import { AUDIO_NOT_TRANSCRIBED_NOTE, SCANNED_PDF_NOTE } from '../../server/services/documents/ingest/sections';
import { resumeIngestion } from '../../server/services/documents/ingest/ingest-document';
import { createSqlJobQueue } from '../../server/platform/jobs/sql-queue';
import { EMBEDDING_BATCH } from '../../server/services/documents/embeddings';
import { createLocalFileStorage, newStorageKey } from '../../server/platform/file-storage';
import { eventually, startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { uploadFile } from './helpers/document-api';
import { docxFile, m4aFile, mp3File, pdfFile, PNG_BYTES, pptxFile, xlsxFile } from './helpers/document-fixtures';
import { hashVector, startFakeEmbeddings, type FakeEmbeddings } from './helpers/fake-embeddings';

// Ingestion through the real upload route: each type's text extracted (in the worker thread), chunked with its
// places, saved and indexed; embeddings and transcription against a local OpenAI-compatible fake.

interface StoredChunk {
  seq: number;
  content: string;
  place: string | null;
  embedding: Buffer | number[] | null;
}

async function chunksOf(s: ChatServer, documentId: string): Promise<StoredChunk[]> {
  return s.db
    .selectFrom('document_chunks')
    .select(['seq', 'content', 'place', 'embedding'])
    .where('document_id', '=', documentId)
    .orderBy('seq')
    .execute();
}

/** Uploads (no conversation) and waits until ingestion has finished, one way or the other. */
async function ingest(s: ChatServer, filename: string, bytes: Uint8Array): Promise<DocumentView> {
  const up = await uploadFile(s, null, filename, bytes);
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  return eventually(async () => {
    const res = await s.api<DocumentView>('GET', `/documents/${up.body.data.id}`);
    return ['ready', 'failed'].includes(res.body.data.status) ? res.body.data : undefined;
  }, 15_000);
}

/** A vector as stored: a float32 little-endian blob (SQLite) or real[] (PostgreSQL). */
function vectorOf(stored: Buffer | number[] | null): number[] {
  if (stored === null) throw new Error('no vector');
  if (Array.isArray(stored)) return stored.map(Number);
  return Array.from({ length: stored.length / 4 }, (_, i) => stored.readFloatLE(i * 4));
}

describe('ingestion without embeddings', () => {
  let s: ChatServer;
  beforeAll(async () => {
    s = await startChatServer();
  });
  afterAll(async () => {
    await s.close();
  });

  it('reads a PDF page by page, each chunk placed on its page', async () => {
    const doc = await ingest(s, 'report.pdf', pdfFile(['The quarterly revenue rose by 12 percent.', 'Page two speaks of costs.', 'Risks: supply chains in Penang.']));
    expect(doc).toMatchObject({ status: 'ready', note: null, error: null });
    const chunks = await chunksOf(s, doc.id);
    expect(chunks.map((c) => [c.place, c.content])).toEqual([
      ['page 1', 'The quarterly revenue rose by 12 percent.'],
      ['page 2', 'Page two speaks of costs.'],
      ['page 3', 'Risks: supply chains in Penang.'],
    ]);
    expect(chunks.every((c) => c.embedding === null)).toBe(true);
  });

  it('says so when a PDF has no text layer (ready, nothing to search)', async () => {
    const doc = await ingest(s, 'scan.pdf', pdfFile(['', '']));
    expect(doc).toMatchObject({ status: 'ready', note: SCANNED_PDF_NOTE, error: null });
    expect(await chunksOf(s, doc.id)).toEqual([]);
  });

  it('keeps a Word document\'s headings as the places of its text', async () => {
    const doc = await ingest(s, 'handbook.docx', docxFile(['# Leave policy', 'Annual leave is 18 days.', 'Carry over up to 5 days.', '# Travel', 'Book flights through the portal.']));
    expect(doc.status).toBe('ready');
    const chunks = await chunksOf(s, doc.id);
    expect(chunks.map((c) => [c.place, c.content])).toEqual([
      ['Leave policy', 'Annual leave is 18 days.\n\nCarry over up to 5 days.'],
      ['Travel', 'Book flights through the portal.'],
    ]);
  });

  it('reads slides in order, each placed on its slide', async () => {
    const doc = await ingest(s, 'deck.pptx', pptxFile(['Roadmap 2027\nLaunch in Q2', 'Budget & hiring', 'Questions?']));
    const chunks = await chunksOf(s, doc.id);
    expect(chunks.map((c) => [c.place, c.content])).toEqual([
      ['slide 1', 'Roadmap 2027\nLaunch in Q2'],
      ['slide 2', 'Budget & hiring'],
      ['slide 3', 'Questions?'],
    ]);
  });

  it('reads sheets as rows of header: value, with the sheet and rows as the place and headers in every chunk', async () => {
    const rows: Array<Array<string | number>> = [['Region', 'Owner', 'Revenue']];
    for (let i = 0; i < 60; i++) rows.push([`Region number ${i}`, `Owner ${i} of the eastern territories`, 1000 + i]);
    const doc = await ingest(s, 'sales.xlsx', xlsxFile({ Summary: [['Total', 'Note'], [61770, 'all regions']], Regions: rows }));
    const chunks = await chunksOf(s, doc.id);
    expect(chunks[0]).toMatchObject({ place: 'Summary row 2', content: 'Total: 61770; Note: all regions' });
    const regions = chunks.slice(1);
    expect(regions.length).toBeGreaterThan(1);
    expect(regions[0].place).toMatch(/^Regions rows 2-\d+$/);
    expect(regions.at(-1)!.place).toMatch(/^Regions rows \d+-61$/);
    for (const chunk of regions) {
      for (const line of chunk.content.split('\n')) expect(line).toMatch(/^Region: Region number \d+; Owner: Owner \d+ of the eastern territories; Revenue: \d+$/);
      expect(chunk.content.length).toBeLessThanOrEqual(1000);
    }
    expect(regions.map((c) => c.content).join('\n')).toContain('Region: Region number 59; Owner: Owner 59 of the eastern territories; Revenue: 1059');
  });

  it('reads CSV like a sheet (quoted fields, rows numbered with the header as row 1)', async () => {
    const csv = 'name,city,notes\nAisha,Kuala Lumpur,"likes ""kopi"", tea"\nBen,Ipoh,\n';
    const doc = await ingest(s, 'people.csv', Buffer.from(csv));
    const chunks = await chunksOf(s, doc.id);
    expect(chunks.map((c) => [c.place, c.content])).toEqual([['rows 2-3', 'name: Aisha; city: Kuala Lumpur; notes: likes "kopi", tea\nname: Ben; city: Ipoh']]);
  });

  it('splits Markdown at its headings and plain text into paragraphs of about 1,000 characters', async () => {
    const md = await ingest(s, 'notes.md', Buffer.from('Intro line.\n\n# Setup\n\nRun `npm start`.\n\n## Ports\n\nIt listens on 8080.\n'));
    expect((await chunksOf(s, md.id)).map((c) => [c.place, c.content])).toEqual([
      [null, 'Intro line.'],
      ['Setup', 'Run `npm start`.'],
      ['Ports', 'It listens on 8080.'],
    ]);
    const paragraphs = Array.from({ length: 12 }, (_, i) => `Paragraph ${i}: ${Array.from({ length: 40 }, (_, w) => `w${i}x${w}`).join(' ')}.`);
    const txt = await ingest(s, 'long.txt', Buffer.from(paragraphs.join('\n\n')));
    const chunks = await chunksOf(s, txt.id);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.every((c) => c.place === null && c.content.length <= 1150)).toBe(true);
    // The overlap: each chunk after the first starts with the last 150 or so characters of the one before.
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i - 1].content.slice(-160).includes(chunks[i].content.slice(0, 60))).toBe(true);
      expect(chunks[i - 1].content.slice(-100).includes(chunks[i].content.slice(0, 60))).toBe(false);
    }
  });

  it('makes images ready at once with nothing to search, and keeps audio with a note when no model transcribes it', async () => {
    const image = await ingest(s, 'photo.png', PNG_BYTES);
    expect(image).toMatchObject({ status: 'ready', note: null });
    const audio = await ingest(s, 'meeting.mp3', mp3File());
    expect(audio).toMatchObject({ status: 'ready', note: AUDIO_NOT_TRANSCRIBED_NOTE });
    expect(await chunksOf(s, audio.id)).toEqual([]);
  });

  it('fails a PDF it cannot read, with a readable reason', async () => {
    const doc = await ingest(s, 'broken.pdf', Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ngarbage without a trailer\n'));
    expect(doc.status).toBe('failed');
    expect(doc.error).toMatch(/^The file's text could not be read \(.+\)\.$/);
  });

  it('extracts in a worker thread: requests are answered while a 100-page PDF is read', async () => {
    const pages = Array.from({ length: 100 }, (_, p) => Array.from({ length: 40 }, (_, l) => `Page ${p + 1} line ${l + 1} of the annual report text.`).join('\n'));
    const up = await uploadFile(s, null, 'big.pdf', pdfFile(pages));
    expect(up.status).toBe(201);
    const latencies: number[] = [];
    let done = false;
    const ready = eventually(async () => {
      const res = await s.api<DocumentView>('GET', `/documents/${up.body.data.id}`);
      done = res.body.data.status === 'ready';
      return done;
    }, 30_000);
    while (!done) {
      const start = performance.now();
      const res = await fetch(`${s.apiUrl}/health`);
      latencies.push(performance.now() - start);
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 10));
    }
    await ready;
    expect(latencies.length).toBeGreaterThan(3);
    // On the event loop, pdf.js would hold it for the whole extraction (about a second). How long the loop is held
    // (goal under 250 ms) is measured by `npm run bench -- ingest`, not bounded here: a wall-clock bound in the
    // pass/fail suite is at the mercy of the machine's load and of the files running beside it.
    const chunks = await chunksOf(s, up.body.data.id);
    expect(new Set(chunks.map((c) => c.place)).size).toBe(100);
  });

  it('ingests again what a crash left half-done without a job, once a starting process queues it', async () => {
    const files = createLocalFileStorage(path.join(s.config.dataDir, 'files'));
    const key = newStorageKey();
    await files.put(key, Buffer.from('Left behind by a crash: the unicorn budget.'));
    const row = await insertDocument(s.db, {
      user_id: s.userId,
      client_id: null,
      department_id: null,
      unit_id: null,
      conversation_id: null,
      filename: 'crash.txt',
      extension: '.txt',
      mime: 'text/plain',
      size: 44,
      origin: 'upload',
      storage_key: key,
      file_key: `k${key.replace(/\W/g, '')}`,
      status: 'embedding',
    });
    // A process starting queues a job for it (this queue only enqueues); the live server takes the job up.
    const jobs = createSqlJobQueue({ db: s.db, log: s.app.log, closing: new AbortController().signal });
    await resumeIngestion({ db: s.db, jobs });
    const after = await eventually(async () => {
      const current = await s.db.selectFrom('documents').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
      return current.status === 'ready' && current;
    });
    expect(after).toMatchObject({ status: 'ready', chunk_count: 1 });
    expect((await chunksOf(s, row.id)).map((c) => c.content)).toEqual(['Left behind by a crash: the unicorn budget.']);
  });
});

describe('ingestion with embeddings and transcription', () => {
  let s: ChatServer;
  let fake: FakeEmbeddings;
  beforeAll(async () => {
    fake = await startFakeEmbeddings();
    s = await startChatServer({
      env: {
        EMBEDDINGS_MODEL: 'fake-embed',
        EMBEDDINGS_BASE_URL: fake.baseUrl,
        EMBEDDINGS_API_KEY: 'embed-key',
        TRANSCRIPTION_MODEL: 'fake-whisper',
        TRANSCRIPTION_BASE_URL: fake.baseUrl,
      },
    });
  });
  afterAll(async () => {
    await s.close();
    await fake.close();
  });

  it('embeds chunks in batches, waits as a 429 asks, and stores unit-length vectors', async () => {
    const lines = Array.from({ length: 70 }, (_, i) => [`Item ${i}`, `the number ${i} in words is item-${i}`]);
    // One row per chunk: each row nearly fills a chunk, so 70 rows make 70 chunks, two batches.
    const csv = `name,description\n${lines.map(([a, b]) => `${a},${b} ${'x'.repeat(960)}`).join('\n')}\n`;
    fake.refuseNext(['1']);
    const before = fake.embeddingRequests.length;
    const doc = await ingest(s, 'items.csv', Buffer.from(csv));
    expect(doc.status, doc.error ?? '').toBe('ready');
    const requests = fake.embeddingRequests.slice(before);
    // The refused request, the same batch again (after the asked second), then the rest.
    expect(requests.map((r) => r.input.length)).toEqual([EMBEDDING_BATCH, EMBEDDING_BATCH, 70 - EMBEDDING_BATCH]);
    expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(950);
    expect(requests[0]).toMatchObject({ model: 'fake-embed', authorization: 'Bearer embed-key' });
    const chunks = await chunksOf(s, doc.id);
    expect(chunks).toHaveLength(70);
    const vector = vectorOf(chunks[5].embedding);
    const expected = hashVector(chunks[5].content);
    const norm = Math.hypot(...expected);
    expect(vector).toHaveLength(expected.length);
    vector.forEach((v, i) => expect(v).toBeCloseTo(expected[i] / norm, 5));
    const docRow = await s.db.selectFrom('documents').select(['chunk_count']).where('id', '=', doc.id).executeTakeFirstOrThrow();
    expect(docRow.chunk_count).toBe(70);
  });

  it('fails the document with a readable reason when the embeddings endpoint fails', async () => {
    fake.failWith(401);
    try {
      const doc = await ingest(s, 'secret.txt', Buffer.from('Nothing gets embedded today.'));
      expect(doc.status).toBe('failed');
      expect(doc.error).toMatch(/^The file's passages could not be indexed for search \(the embeddings endpoint 127\.0\.0\.1:\d+ answered HTTP 401\)\.$/);
      expect(await chunksOf(s, doc.id)).toEqual([]);
    } finally {
      fake.failWith(undefined);
    }
  });

  it('transcribes audio through /audio/transcriptions and indexes the transcript', async () => {
    fake.transcript = 'Welcome to the town hall. The new office opens in Johor Bahru in March.';
    const doc = await ingest(s, 'townhall.m4a', m4aFile());
    expect(doc).toMatchObject({ status: 'ready', note: null });
    expect(fake.transcriptionRequests.at(-1)).toMatchObject({ model: 'fake-whisper', filename: 'townhall.m4a' });
    // Without its own key, the transcription endpoint at its own URL gets none of the chat model's.
    expect(fake.transcriptionRequests.at(-1)!.authorization).toBe('Bearer not-needed');
    const chunks = await chunksOf(s, doc.id);
    expect(chunks.map((c) => [c.place, c.content])).toEqual([['transcript', fake.transcript]]);
    expect(chunks[0].embedding).not.toBeNull();
  });
});
