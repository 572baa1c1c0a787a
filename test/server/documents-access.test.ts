import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentView } from '../../contract/documents';
import { documentList } from '../../contract/documents';
import { DOCUMENT_DELETED, DOCUMENT_NOT_FOUND } from '../../contract/documents-constants';
import { successEnvelope } from '../../contract/envelope';
import { NOT_YOUR_USER_ID } from '../../server/services/documents/documents';
import { eventually, startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { storedFiles, uploadFile } from './helpers/document-api';
import { PNG_BYTES, pdfFile } from './helpers/document-fixtures';
import { addUser, createOrganisation, login } from './helpers/fixtures';
import { dbKind } from './helpers/test-app';

const utf8 = (text: string) => Buffer.from(text, 'utf8');

describe(`who may read and delete documents (${dbKind})`, () => {
  let s: ChatServer;
  let conversationId: string;
  /** A user of another organisation. */
  let outsiderToken: string;
  let pdf: DocumentView;
  let png: DocumentView;
  const pdfBytes = pdfFile(['Résumé of the year']);

  beforeAll(async () => {
    s = await startChatServer();
    conversationId = (await s.ask({ conversation_id: null, message: 'Files here' })).control.conversation_id;
    const org = await createOrganisation(s.db, { name: 'Org B' });
    await addUser(s.db, { client_id: org.client.id, name: 'Bea', email: 'bea@org-b.test', department_id: org.department.id, unit_id: org.unit.id });
    outsiderToken = (await login(s.app, 'bea@org-b.test')).access_token;
    pdf = (await uploadFile(s, conversationId, 'Résumé (final) "2025".pdf', pdfBytes)).body.data;
    png = (await uploadFile(s, conversationId, 'pixel.png', PNG_BYTES)).body.data;
  });
  afterAll(() => s.close());

  /** A raw fetch, for headers and bytes. */
  const raw = (url: string, token?: string, method = 'GET') =>
    fetch(`${s.apiUrl}${url}`, { method, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const rowOf = (id: string) => s.db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst();

  it('gives the owner the document and its file, with its name, type and nosniff', async () => {
    const details = await s.api<DocumentView>('GET', `/documents/${pdf.id}`);
    expect(details.status).toBe(200);
    // Ingestion moves status (and note) along meanwhile; the rest is what the upload answered.
    const { status: _s, note: _n, ...uploaded } = pdf;
    expect(details.body.data).toMatchObject(uploaded);

    for (const url of [`/documents/${pdf.id}/file`, `/documents/${pdf.id}?download=1`]) {
      const res = await raw(url, s.token);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-disposition')).toBe(
        `attachment; filename="R_sum_ (final) _2025_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%28final%29%20%222025%22.pdf`,
      );
      expect(Buffer.from(await res.arrayBuffer())).toEqual(pdfBytes);
    }
  });

  it('serves text as UTF-8', async () => {
    const text = (await uploadFile(s, conversationId, 'notes.md', utf8('# Über'))).body.data;
    const res = await raw(`/documents/${text.id}/file`, s.token);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await res.text()).toBe('# Über');
  });

  it("lists a conversation's documents oldest first, and only for its owner", async () => {
    const list = await s.api('GET', '/documents/', { query: { conversation_id: conversationId } });
    expect(list.status).toBe(200);
    const ids = successEnvelope(documentList).parse(list.body).data.documents.map((d) => d.id);
    expect(ids.slice(0, 2)).toEqual([pdf.id, png.id]);
    for (const token of [s.otherToken, outsiderToken]) {
      const res = await s.api('GET', '/documents/', { token, query: { conversation_id: conversationId } });
      expect(res.status).toBe(404);
    }
    expect((await s.api('GET', '/documents/', { query: {} })).status).toBe(400);
  });

  it("answers 404 for another user's document on every route, in the organisation or outside it", async () => {
    for (const token of [s.otherToken, outsiderToken]) {
      const details = await s.api('GET', `/documents/${pdf.id}`, { token });
      expect(details.status).toBe(404);
      expect(details.body.detail).toBe(DOCUMENT_NOT_FOUND);
      expect((await raw(`/documents/${pdf.id}/file`, token)).status).toBe(404);
      expect((await raw(`/documents/${pdf.id}?download=1`, token)).status).toBe(404);
      expect((await s.api('DELETE', `/documents/${pdf.id}`, { token })).status).toBe(404);
    }
    expect(await rowOf(pdf.id)).toBeDefined();
    for (const [method, url] of [
      ['GET', `/documents/${pdf.id}`],
      ['GET', `/documents/${pdf.id}/file`],
      ['DELETE', `/documents/${pdf.id}`],
      ['GET', `/documents/?conversation_id=${conversationId}`],
    ]) {
      expect((await raw(url, undefined, method)).status, `${method} ${url} without a token`).toBe(401);
    }
  });

  it('serves an image by its key to anyone holding it, inline and cacheable; anything else downloads; unknown keys 404', async () => {
    const row = (await rowOf(png.id))!;
    expect(png.preview_url).toBe(`/api/v1/files/${row.file_key}`);
    const image = await fetch(`${s.apiUrl}/files/${row.file_key}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(image.headers.get('content-disposition')).toMatch(/^inline; filename="pixel.png"/);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG_BYTES);

    const pdfRow = (await rowOf(pdf.id))!;
    const byKey = await fetch(`${s.apiUrl}/files/${pdfRow.file_key}`);
    expect(byKey.status).toBe(200);
    expect(byKey.headers.get('content-disposition')).toMatch(/^attachment;/);

    expect((await fetch(`${s.apiUrl}/files/${'A'.repeat(43)}`)).status).toBe(404);
  });

  it('deletes for the owner only: user_id naming someone else is 403; the row, its passages and the stored file go', async () => {
    const doc = (await uploadFile(s, conversationId, 'gone.txt', utf8('to be deleted'))).body.data;
    const row = (await rowOf(doc.id))!;
    // A passage as ingestion writes it: it must go with its document. Seq 1,000 is past what ingestion writes for
    // this text, which may already be running (it raced seq 0 when files ran in parallel).
    await s.db.insertInto('document_chunks').values({ document_id: doc.id, seq: 1_000, content: 'to be deleted', place: null, embedding: null }).execute();
    const file = path.join(s.config.dataDir, 'files', row.storage_key);
    await expect(fs.stat(file)).resolves.toBeDefined();

    const other = await s.db.selectFrom('users').select('id').where('email', '=', 'newhire@demo.local').executeTakeFirstOrThrow();
    const refused = await s.api('DELETE', `/documents/${doc.id}`, { query: { user_id: other.id } });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(NOT_YOUR_USER_ID);

    const deleted = await s.api<{ message: string }>('DELETE', `/documents/${doc.id}`, { query: { user_id: s.userId } });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.message).toBe(DOCUMENT_DELETED);
    expect(await rowOf(doc.id)).toBeUndefined();
    expect(await s.db.selectFrom('document_chunks').selectAll().where('document_id', '=', doc.id).execute()).toEqual([]);
    await expect(fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await s.api('GET', `/documents/${doc.id}`)).status).toBe(404);
    expect((await fetch(`${s.apiUrl}/files/${row.file_key}`)).status).toBe(404);
    expect((await s.api('DELETE', `/documents/${doc.id}`)).status).toBe(404);
  });

  it("deleting a conversation deletes its documents' rows, passages and files, and no one else's", async () => {
    const doomed = (await s.ask({ conversation_id: null, message: 'short-lived' })).control.conversation_id;
    const a = (await uploadFile(s, doomed, 'a.txt', utf8('first'))).body.data;
    const b = (await uploadFile(s, doomed, 'b.png', PNG_BYTES)).body.data;
    await s.db.insertInto('document_chunks').values({ document_id: a.id, seq: 1_000, content: 'first', place: null, embedding: null }).execute();
    const keys = (await s.db.selectFrom('documents').select('storage_key').where('id', 'in', [a.id, b.id]).execute()).map((r) => r.storage_key);
    const before = await storedFiles(s.config.dataDir);
    expect(before).toEqual(expect.arrayContaining(keys));

    expect((await s.api('DELETE', `/chat/conversations/${doomed}`)).status).toBe(200);
    expect(await s.db.selectFrom('documents').selectAll().where('conversation_id', '=', doomed).execute()).toEqual([]);
    expect(await s.db.selectFrom('document_chunks').selectAll().where('document_id', 'in', [a.id, b.id]).execute()).toEqual([]);
    expect(await storedFiles(s.config.dataDir)).toEqual(before.filter((f) => !keys.includes(f)));
    // The other conversation's files are untouched.
    expect(await rowOf(pdf.id)).toBeDefined();
  });

  it('shows a document moving to ready once ingested (ingestion runs in the background)', async () => {
    const doc = (await uploadFile(s, conversationId, 'ingest-me.txt', utf8('A paragraph worth indexing.'))).body.data;
    const ready = await eventually(async () => {
      const res = await s.api<DocumentView>('GET', `/documents/${doc.id}`);
      return ['ready', 'failed'].includes(res.body.data.status) ? res.body.data : undefined;
    });
    expect(ready).toMatchObject({ status: 'ready', error: null });
  });
});
