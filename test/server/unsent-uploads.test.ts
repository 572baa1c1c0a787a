import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { createLocalFileStorage } from '../../server/platform/file-storage';
import { sweepUnsentUploads, UNSENT_UPLOAD_LIFETIME_MS } from '../../server/services/documents/unsent-uploads';
import { eventually, startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { storedFiles, uploadFile } from './helpers/document-api';
import { dbKind } from './helpers/test-app';

// Files attached on the new-chat screen belong to no conversation until the first message is sent; the screen does
// not bring them back after a reload, so one never sent would stay stored (and counted in the reports) forever.

const MINUTE_MS = 60_000;
const text = (s: string) => Buffer.from(s, 'utf8');

describe(`files attached to a new chat that was never sent (${dbKind})`, () => {
  let s: ChatServer;
  beforeAll(async () => {
    s = await startChatServer();
  });
  afterAll(() => s.close());

  const sweepAt = (now: number) => sweepUnsentUploads({ db: s.db, files: createLocalFileStorage(path.join(s.config.dataDir, 'files')), log: s.app.log }, now);
  const rowOf = (id: string) => s.db.selectFrom('documents').select(['id', 'storage_key', 'conversation_id']).where('id', '=', id).executeTakeFirst();
  const upload = async (conversationId: string | null, name: string) => {
    const res = await uploadFile(s, conversationId, name, text(`The contents of ${name}`));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // Ingestion runs in the background: the sweep leaves a file alone until it has ended.
    return eventually(async () => {
      const row = await s.db.selectFrom('documents').select(['id', 'storage_key', 'status']).where('id', '=', res.body.data.id).executeTakeFirstOrThrow();
      return (row.status === 'ready' || row.status === 'failed') && row;
    });
  };

  it('are deleted, row and bytes, once a day old; sent ones, younger ones and those of a conversation stay', async () => {
    const existing = (await s.ask({ conversation_id: null, message: 'A conversation with a file' })).control.conversation_id;
    const inConversation = await upload(existing, 'in-conversation.txt');
    const sent = await upload(null, 'sent.txt');
    const abandoned = await upload(null, 'abandoned.txt');
    const uploadedAt = Date.now();
    const started = await s.ask({ conversation_id: null, message: 'Read the file please', document_ids: [sent.id] });
    expect(started.errors).toEqual([]);

    // A minute short of a day: nothing yet.
    expect(await sweepAt(uploadedAt + UNSENT_UPLOAD_LIFETIME_MS - MINUTE_MS)).toBe(0);
    expect(await rowOf(abandoned.id)).toBeDefined();

    expect(await sweepAt(uploadedAt + UNSENT_UPLOAD_LIFETIME_MS + MINUTE_MS)).toBe(1);
    expect(await rowOf(abandoned.id)).toBeUndefined();
    const files = await storedFiles(s.config.dataDir);
    expect(files).not.toContain(abandoned.storage_key);
    expect(files).toEqual(expect.arrayContaining([sent.storage_key, inConversation.storage_key]));
    expect(await rowOf(sent.id)).toMatchObject({ conversation_id: started.control.conversation_id });
    expect(await rowOf(inConversation.id)).toMatchObject({ conversation_id: existing });
    // Its link is gone with it.
    const download = await s.api('GET', `/documents/${abandoned.id}/file`);
    expect(download.status).toBe(404);
  });

  it('leaves a file whose text is still being read, and sends without a swept file', async () => {
    const reading = await upload(null, 'reading.txt');
    const swept = await upload(null, 'swept.txt');
    await s.db.updateTable('documents').set({ status: 'chunking' }).where('id', '=', reading.id).execute();
    expect(await sweepAt(Date.now() + UNSENT_UPLOAD_LIFETIME_MS + MINUTE_MS)).toBe(1);
    expect(await rowOf(reading.id)).toBeDefined();
    expect(await rowOf(swept.id)).toBeUndefined();

    // A tab left open for a day still sends: the question goes without the file that is gone.
    const late = await s.ask({ conversation_id: null, message: 'Here is my file', document_ids: [swept.id] });
    expect(late.errors).toEqual([]);
    const docs = await s.db.selectFrom('documents').select('id').where('conversation_id', '=', late.control.conversation_id).execute();
    expect(docs).toEqual([]);
    await s.db.updateTable('documents').set({ status: 'ready' }).where('id', '=', reading.id).execute();
  });

  it('are swept by a server as it starts (here a second instance on the same database)', async () => {
    const old = await upload(null, 'old.txt');
    const fresh = await upload(null, 'fresh.txt');
    const dayAgo = new Date(Date.now() - UNSENT_UPLOAD_LIFETIME_MS - MINUTE_MS).toISOString();
    await s.db.updateTable('documents').set({ created_at: dayAgo }).where('id', '=', old.id).execute();

    const second = await buildApp({ config: s.config, db: s.db, logger: false, maintenance: true });
    try {
      await second.ready();
      // The row goes first, then the bytes.
      await eventually(async () => !(await storedFiles(s.config.dataDir)).includes(old.storage_key));
      expect(await rowOf(old.id)).toBeUndefined();
      expect(await rowOf(fresh.id)).toBeDefined();
    } finally {
      await second.close();
    }
    expect(await fs.readFile(path.join(s.config.dataDir, 'files', fresh.storage_key), 'utf8')).toBe('The contents of fresh.txt');
  });
});
