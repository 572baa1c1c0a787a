import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { createLocalFileStorage, newStorageKey, type FileStorage } from '../../server/platform/file-storage';
import { createS3FileStorage } from '../../server/platform/s3-file-storage';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { storedFiles, uploadFile } from './helpers/document-api';
import { pdfFile } from './helpers/document-fixtures';
import { startS3Peer, type S3Peer } from './helpers/s3-peer';
import { dbKind } from './helpers/test-app';

// Files in an S3-compatible bucket (S3_*), against a fake S3 (s3rver) on loopback: the same promises as the disk
// store, and the app storing, serving and reading uploads through it with nothing on its own disk.

const collect = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
};

let peer: S3Peer;
let localDir: string;
beforeAll(async () => {
  peer = await startS3Peer();
  localDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tanya-files-'));
});
afterAll(async () => {
  await peer?.stop();
  await fs.rm(localDir, { recursive: true, force: true });
});

describe.each([
  ['on disk', () => createLocalFileStorage(localDir)],
  [
    'in S3',
    () => {
      const config = loadConfig({ ...peer.env, NODE_ENV: 'test' }).s3;
      if (!config) throw new Error('S3_* did not configure S3');
      return createS3FileStorage(config);
    },
  ],
] as const)('file storage %s', (_where, make) => {
  let files: FileStorage;
  beforeAll(() => {
    files = make();
  });

  it('keeps bytes as given, from a buffer or a stream, and hands them back whole or streamed', async () => {
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    const key = newStorageKey();
    await files.put(key, bytes);
    expect(await files.read(key)).toEqual(bytes);
    expect(await collect(await files.open(key))).toEqual(bytes);

    const streamed = newStorageKey();
    await files.put(streamed, Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]));
    expect(await files.read(streamed)).toEqual(bytes);
  });

  it('says a missing file is missing (ENOENT), removes twice without complaint, and refuses a key it did not make', async () => {
    const key = newStorageKey();
    await expect(files.open(key)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(files.read(key)).rejects.toMatchObject({ code: 'ENOENT' });
    await files.put(key, Buffer.from('x'));
    await files.remove(key);
    await files.remove(key);
    await expect(files.open(key)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(files.put('../../etc/passwd', Buffer.from('x'))).rejects.toThrow('invalid storage key');
    await expect(files.open('2026-01/../../x')).rejects.toThrow('invalid storage key');
  });
});

describe(`the app with its files in S3 (${dbKind})`, () => {
  let s: ChatServer;
  beforeAll(async () => {
    s = await startChatServer({ env: peer.env });
  });
  afterAll(() => s?.close());

  it('stores an upload in the bucket, not on its disk, serves it byte for byte, and reads it for retrieval', async () => {
    const conversationId = (await s.ask({ conversation_id: null, message: 'Files in the bucket' })).control.conversation_id;
    const before = await peer.objects();
    const bytes = pdfFile(['The bucket keeps the quarterly numbers']);
    const uploaded = await uploadFile(s, conversationId, 'numbers.pdf', bytes);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const added = (await peer.objects()).filter((o) => !before.includes(o));
    expect(added).toHaveLength(1);
    expect(await storedFiles(s.config.dataDir)).toEqual([]);

    const res = await fetch(`${s.apiUrl}/documents/${uploaded.body.data.id}/file`, { headers: { authorization: `Bearer ${s.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);

    // Ingestion read the file back from the bucket: its text was extracted.
    await expect
      .poll(async () => (await s.api<{ status: string }>('GET', `/documents/${uploaded.body.data.id}`)).body.data.status, { timeout: 15_000 })
      .toBe('ready');
  });
});
