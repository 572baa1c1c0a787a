import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentView } from '../../contract/documents';
import type { AppContext } from '../../server/context';
import { insertDocument } from '../../server/db/repositories/documents';
import { stopExtractionWorkers } from '../../server/services/documents/ingest/extraction-worker';
import { ingestDocument } from '../../server/services/documents/ingest/ingest-document';
import { createBackgroundTasks } from '../../server/platform/background';
import { createLocalFileStorage, newStorageKey } from '../../server/platform/file-storage';
import { eventually, startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { uploadFile } from './helpers/document-api';
import { pdfFile } from './helpers/document-fixtures';
import { addUser, createOrganisation, login } from './helpers/fixtures';
import { dbKind } from './helpers/test-app';

// One document cannot hold up or fail another's: each is extracted in a worker of its own with its own time
// budget (EXTRACTION_TIMEOUT_MS, set small here), and one over it fails alone while the others are read. Before,
// every document shared one worker, and one file over the limit failed all the others it held.

/**
 * A PDF far over the 1 s budget set below on any machine: 2,000 pages (4.6 MB) took 4.7 s on a quiet CI machine,
 * where 400 pages were read within the budget (1.4 s in a process of their own, under 1 s in a warm worker).
 */
const slowPdf = () =>
  pdfFile(Array.from({ length: 2000 }, (_, p) => Array.from({ length: 40 }, (_, l) => `Page ${p + 1} line ${l + 1} of the long report.`).join('\n')));

const OVER_BUDGET = "The file's text could not be read (reading the file took longer than 1 s).";

async function chunksOf(s: ChatServer, documentId: string): Promise<string[]> {
  const rows = await s.db.selectFrom('document_chunks').select('content').where('document_id', '=', documentId).orderBy('seq').execute();
  return rows.map((r) => r.content);
}

/** Waits until the document's ingestion has finished, one way or the other. */
function finished(s: ChatServer, id: string, token: string): Promise<DocumentView> {
  return eventually(async () => {
    const res = await s.api<DocumentView>('GET', `/documents/${id}`, { token });
    return ['ready', 'failed'].includes(res.body.data.status) ? res.body.data : undefined;
  }, 60_000);
}

/** A server whose documents have 1 s each, and a user of a second organisation. */
async function startServer(workers: number): Promise<{ s: ChatServer; outsiderToken: string }> {
  const s = await startChatServer({ env: { EXTRACTION_TIMEOUT_MS: '1000', EXTRACTION_WORKERS: String(workers) } });
  const org = await createOrganisation(s.db, { name: 'Org B' });
  await addUser(s.db, { client_id: org.client.id, name: 'Bea', email: 'bea@org-b.test', department_id: org.department.id, unit_id: org.unit.id });
  return { s, outsiderToken: (await login(s.app, 'bea@org-b.test')).access_token };
}

describe(`a document over its time budget fails alone (${dbKind})`, () => {
  afterAll(() => stopExtractionWorkers());

  for (const workers of [2, 1]) {
    // Two workers: the other document is read beside the slow one. One: it waits for the worker and is read
    // once the slow one's budget is spent (its worker stopped and replaced), never failed with it.
    it(`with ${workers} worker${workers > 1 ? 's' : ''}, another organisation's document sent meanwhile is read`, { timeout: 120_000 }, async () => {
      const { s, outsiderToken } = await startServer(workers);
      try {
        const slow = await uploadFile(s, null, 'long-report.pdf', slowPdf());
        expect(slow.status).toBe(201);
        const normal = await uploadFile(s, null, 'minutes.txt', Buffer.from('Minutes of the Penang office meeting.'), { token: outsiderToken });
        expect(normal.status).toBe(201);

        const [slowDoc, normalDoc] = await Promise.all([finished(s, slow.body.data.id, s.token), finished(s, normal.body.data.id, outsiderToken)]);
        expect(slowDoc).toMatchObject({ status: 'failed', error: OVER_BUDGET });
        expect(await chunksOf(s, slowDoc.id)).toEqual([]);
        expect(normalDoc).toMatchObject({ status: 'ready', error: null });
        expect(await chunksOf(s, normalDoc.id)).toEqual(['Minutes of the Penang office meeting.']);

        // The pool goes on: the next document is read by the worker that replaced the stopped one.
        const after = await uploadFile(s, null, 'after.txt', Buffer.from('Read after the slow one.'));
        expect(await finished(s, after.body.data.id, s.token)).toMatchObject({ status: 'ready' });
      } finally {
        await s.close();
      }
    });
  }
});

describe(`a document deleted while it is read (${dbKind})`, () => {
  let s: ChatServer;
  const logLines: string[] = [];
  beforeAll(async () => {
    s = await startChatServer({ logger: { level: 'info', stream: { write: (line: string) => logLines.push(line) } } });
  });
  afterAll(async () => {
    await s.close();
    await stopExtractionWorkers();
  });

  it('is skipped quietly: no error logged, no chunks left', { timeout: 60_000 }, async () => {
    const files = createLocalFileStorage(path.join(s.config.dataDir, 'files'));
    const key = newStorageKey();
    const bytes = slowPdf();
    await files.put(key, bytes);
    const row = await insertDocument(s.db, {
      user_id: s.userId,
      client_id: null,
      department_id: null,
      unit_id: null,
      conversation_id: null,
      filename: 'long-report.pdf',
      extension: '.pdf',
      mime: 'application/pdf',
      size: bytes.length,
      origin: 'upload',
      storage_key: key,
      file_key: `k${key.replace(/\W/g, '')}`,
      status: 'queued',
    });
    // Ingested as the upload route does, but awaited here, so the test knows when it has finished.
    const ctx = {
      config: s.config,
      db: s.db,
      files,
      log: s.app.log,
      background: createBackgroundTasks(s.app.log),
      closing: new AbortController().signal,
    } as unknown as AppContext;
    const ingestion = ingestDocument(ctx, row.id);
    await eventually(async () => {
      const current = await s.db.selectFrom('documents').select('status').where('id', '=', row.id).executeTakeFirst();
      return current?.status === 'chunking';
    });
    expect((await s.api('DELETE', `/documents/${row.id}`)).status).toBe(200);
    await ingestion;

    expect(await s.db.selectFrom('documents').select('id').where('id', '=', row.id).executeTakeFirst()).toBeUndefined();
    expect(await chunksOf(s, row.id)).toEqual([]);
    const warnings = logLines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((entry) => entry.level >= 40);
    expect(warnings).toEqual([]);
  });
});
