import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentView } from '../../contract/documents';
import { UPLOAD_TYPE_REFUSED, uploadContentMismatch, uploadTooLarge } from '../../contract/documents-constants';
import { successEnvelope } from '../../contract/envelope';
import { documentMarker, imageMarker } from '../../shared/markers';
import { NOT_YOUR_USER_ID } from '../../server/services/documents/documents';
import { ZIP_BOMB } from '../../server/services/documents/upload-check';
import { NO_FILE } from '../../server/routes/documents';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { storedFiles, uploadFile } from './helpers/document-api';
import {
  docxFile,
  EXE_BYTES,
  JPEG_BYTES,
  m4aFile,
  mp3File,
  pdfFile,
  plainZip,
  PNG_BYTES,
  pptxFile,
  xlsxFile,
  zipBombDocx,
} from './helpers/document-fixtures';
import { dbKind } from './helpers/test-app';

const utf8 = (text: string) => Buffer.from(text, 'utf8');

describe(`uploading documents (${dbKind})`, () => {
  let s: ChatServer;
  let conversationId: string;
  beforeAll(async () => {
    s = await startChatServer();
    conversationId = (await s.ask({ conversation_id: null, message: 'A conversation for files' })).control.conversation_id;
  });
  afterAll(() => s.close());

  const rowsOf = (userId: string) => s.db.selectFrom('documents').selectAll().where('user_id', '=', userId).execute();

  it.each([
    ['photo.jpg', JPEG_BYTES, 'image/jpeg'],
    ['photo.jpeg', JPEG_BYTES, 'image/jpeg'],
    ['pixel.png', PNG_BYTES, 'image/png'],
    ['report.pdf', pdfFile(['Quarterly report', 'Page two']), 'application/pdf'],
    ['notes.txt', utf8('Plain notes ✓'), 'text/plain'],
    ['readme.md', utf8('# Title\n\nBody'), 'text/markdown'],
    ['table.csv', utf8('name,amount\nNur,12\n'), 'text/csv'],
    ['letter.docx', docxFile(['Hello']), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['sheet.xlsx', xlsxFile({ S: [['a', 'b'], [1, 2]] }), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['deck.pptx', pptxFile(['Slide one']), 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    ['song.mp3', mp3File(), 'audio/mpeg'],
    ['voice.m4a', m4aFile(), 'audio/mp4'],
  ])('accepts %s: 201 with the document, its bytes stored under DATA_DIR/files', async (filename, bytes, mime) => {
    const res = await uploadFile(s, conversationId, filename, bytes);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const doc = successEnvelope(documentView).parse(res.body).data;
    expect(doc).toMatchObject({ filename, size: bytes.length, type: mime, conversation_id: conversationId, status: 'queued', error: null });
    expect(doc.download_url).toBe(`/api/v1/documents/${doc.id}/file`);
    const row = await s.db.selectFrom('documents').selectAll().where('id', '=', doc.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: s.userId, origin: 'upload', mime, size: bytes.length, extension: path.extname(filename) });
    // The key the server made, never the name: and 32 random bytes for the capability key.
    expect(row.storage_key).toMatch(/^\d{4}-\d{2}\/[0-9a-f-]{36}$/);
    expect(row.file_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await fs.readFile(path.join(s.config.dataDir, 'files', row.storage_key))).toEqual(Buffer.from(bytes));
    if (mime.startsWith('image/')) {
      expect(doc.preview_url).toBe(`/api/v1/files/${row.file_key}`);
      expect(doc.file_path_marker).toBe(imageMarker(`/api/v1/files/${row.file_key}`, filename));
    } else {
      expect(doc.preview_url).toBeNull();
      expect(doc.file_path_marker).toBe(documentMarker(doc.download_url, filename));
    }
  });

  it('records the organisation, department and unit of the owner (the usage reports count by them)', async () => {
    const res = await uploadFile(s, conversationId, 'org.txt', utf8('x'));
    const row = await s.db.selectFrom('documents').selectAll().where('id', '=', res.body.data.id).executeTakeFirstOrThrow();
    const user = await s.db.selectFrom('users').selectAll().where('id', '=', s.userId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ client_id: user.client_id, department_id: user.department_id, unit_id: user.unit_id });
  });

  it.each([
    ['an unaccepted type', 'setup.exe', EXE_BYTES, 415, UPLOAD_TYPE_REFUSED],
    ['a renamed executable', 'invoice.pdf', EXE_BYTES, 415, uploadContentMismatch('.pdf')],
    ['a PNG named .txt', 'notes.txt', PNG_BYTES, 415, uploadContentMismatch('.txt')],
    ['invalid UTF-8 in a .txt', 'notes.txt', Buffer.from([0x61, 0xff, 0xfe, 0x62]), 415, uploadContentMismatch('.txt')],
    ['a NUL in a .csv', 'table.csv', utf8('a,b\n1,\u00002\n'), 415, uploadContentMismatch('.csv')],
    ['a plain zip named .docx', 'letter.docx', plainZip(), 415, uploadContentMismatch('.docx')],
    ['a zip bomb', 'bomb.docx', zipBombDocx(), 413, ZIP_BOMB],
  ])('refuses %s (%s) with its sentence, storing nothing', async (_case, filename, bytes, status, detail) => {
    const rowsBefore = (await rowsOf(s.userId)).length;
    const filesBefore = await storedFiles(s.config.dataDir);
    const res = await uploadFile(s, conversationId, filename, bytes);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ status: 'error', detail });
    expect((await rowsOf(s.userId)).length).toBe(rowsBefore);
    expect(await storedFiles(s.config.dataDir)).toEqual(filesBefore);
  });

  it('takes the owner from the token: user_id naming someone else is 403, naming the caller is fine', async () => {
    const other = await s.db.selectFrom('users').select('id').where('email', '=', 'newhire@demo.local').executeTakeFirstOrThrow();
    const refused = await uploadFile(s, conversationId, 'a.txt', utf8('a'), { userId: other.id });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(NOT_YOUR_USER_ID);
    expect(await rowsOf(other.id)).toEqual([]);
    const refusedLoose = await uploadFile(s, null, 'a.txt', utf8('a'), { userId: other.id });
    expect(refusedLoose.status).toBe(403);
    expect((await uploadFile(s, conversationId, 'a.txt', utf8('a'), { userId: s.userId })).status).toBe(201);
  });

  it("answers 404 for another user's conversation and an unknown one, reading no file", async () => {
    const theirs = (await s.ask({ conversation_id: null, message: 'mine, not yours' }, s.otherToken)).control.conversation_id;
    const filesBefore = await storedFiles(s.config.dataDir);
    for (const id of [theirs, 'no-such-conversation']) {
      const res = await uploadFile(s, id, 'a.txt', utf8('a'));
      expect(res.status, id).toBe(404);
      expect(res.body.detail).toBe('Conversation not found');
    }
    expect(await storedFiles(s.config.dataDir)).toEqual(filesBefore);
  });

  it('needs one file in the field "file", as multipart (400 otherwise), and a token (401)', async () => {
    const wrongField = await uploadFile(s, conversationId, 'a.txt', utf8('a'), { field: 'document' });
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.detail).toBe(NO_FILE);
    const json = await s.api('POST', `/documents/upload/${conversationId}`, { body: { file: 'a' } });
    expect(json.status).toBe(400);
    expect(json.body.detail).toBe(NO_FILE);
    const anonymous = await uploadFile(s, conversationId, 'a.txt', utf8('a'), { token: 'not-a-token' });
    expect(anonymous.status).toBe(401);
  });

  it('keeps the name for display only: paths, control and direction characters removed, 255 characters at most', async () => {
    const res = await uploadFile(s, conversationId, 'C:\\Users\\nur\\..\\evil\u202egnp.txt', utf8('x'));
    expect(res.status).toBe(201);
    expect(res.body.data.filename).toBe('evilgnp.txt');
    const long = await uploadFile(s, conversationId, `${'é'.repeat(300)}.md`, utf8('# long'));
    expect(long.status).toBe(201);
    expect(Array.from(long.body.data.filename)).toHaveLength(255);
    expect(long.body.data.filename.endsWith('é.md')).toBe(true);
  });

  it('uploads without a conversation (the new-chat screen), and the first message takes along only the caller\'s free files', async () => {
    const mine = (await uploadFile(s, null, 'brief.txt', utf8('The launch code word is heliotrope.'))).body.data;
    expect(mine.conversation_id).toBeNull();
    const alsoMine = (await uploadFile(s, null, 'pixel.png', PNG_BYTES)).body.data;
    const theirs = (await uploadFile(s, null, 'theirs.txt', utf8('not yours'), { token: s.otherToken })).body.data;
    const elsewhere = (await uploadFile(s, conversationId, 'elsewhere.txt', utf8('already attached'))).body.data;

    const control = (
      await s.ask({ conversation_id: null, message: 'About my files', document_ids: [mine.id, alsoMine.id, theirs.id, elsewhere.id, 'unknown-id'] })
    ).control;
    const conversationOf = async (id: string) =>
      (await s.db.selectFrom('documents').select('conversation_id').where('id', '=', id).executeTakeFirstOrThrow()).conversation_id;
    expect(await conversationOf(mine.id)).toBe(control.conversation_id);
    expect(await conversationOf(alsoMine.id)).toBe(control.conversation_id);
    expect(await conversationOf(theirs.id)).toBeNull();
    expect(await conversationOf(elsewhere.id)).toBe(conversationId);

    const list = await s.api<{ documents: { id: string }[] }>('GET', '/documents/', { query: { conversation_id: control.conversation_id } });
    expect(list.status).toBe(200);
    expect(list.body.data.documents.map((d) => d.id)).toEqual([mine.id, alsoMine.id]);
    // An existing conversation's send ignores document_ids (its uploads name it already).
    await s.ask({ conversation_id: conversationId, message: 'again', document_ids: [theirs.id] });
    expect(await conversationOf(theirs.id)).toBeNull();
  });
});

describe(`the upload size limit (${dbKind})`, () => {
  let s: ChatServer;
  let conversationId: string;
  const MB = 1024 * 1024;
  beforeAll(async () => {
    s = await startChatServer({ env: { UPLOAD_MAX_MB: '1' } });
    conversationId = (await s.ask({ conversation_id: null, message: 'Big files' })).control.conversation_id;
  });
  afterAll(() => s.close());

  it('refuses a file over UPLOAD_MAX_MB with 413, storing nothing, and accepts one of exactly the limit', async () => {
    const over = await uploadFile(s, conversationId, 'big.txt', Buffer.alloc(MB + 1, 'a'));
    expect(over.status).toBe(413);
    expect(over.body.detail).toBe(uploadTooLarge(1));
    const overLoose = await uploadFile(s, null, 'big.pdf', Buffer.concat([pdfFile(['x']), Buffer.alloc(2 * MB)]));
    expect(overLoose.status).toBe(413);
    expect(await storedFiles(s.config.dataDir)).toEqual([]);
    expect(await s.db.selectFrom('documents').selectAll().execute()).toEqual([]);

    const exact = await uploadFile(s, conversationId, 'exact.txt', Buffer.alloc(MB, 'a'));
    expect(exact.status).toBe(201);
    expect(exact.body.data.size).toBe(MB);
  });
});
