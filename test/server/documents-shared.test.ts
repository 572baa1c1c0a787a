import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_NOT_FOUND } from '../../contract/documents-constants';
import type { ShareLink } from '../../contract/shares';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { uploadFile } from './helpers/document-api';
import { pdfFile } from './helpers/document-fixtures';
import { addUser, createOrganisation, login } from './helpers/fixtures';
import { dbKind } from './helpers/test-app';

// The shared page's document cards download with the viewer's token: a document of a shared conversation is
// readable by whoever may read the share (GET /shares/{id}'s rule), and only the file, only while it is shared.

describe(`documents of a shared conversation (${dbKind})`, () => {
  let s: ChatServer;
  /** A user of another organisation. */
  let outsiderToken: string;
  /** super@demo.local: no organisation. */
  let superToken: string;
  const pdfBytes = pdfFile(['Quarterly figures']);

  beforeAll(async () => {
    s = await startChatServer();
    const org = await createOrganisation(s.db, { name: 'Elsewhere Ltd' });
    await addUser(s.db, { client_id: org.client.id, name: 'Olga Outside', email: 'olga@elsewhere.test' });
    outsiderToken = (await login(s.app, 'olga@elsewhere.test')).access_token;
    superToken = (await login(s.app, 'super@demo.local')).access_token;
  });
  afterAll(() => s.close());

  /** The file by both download URLs: each answer's status, and the bytes of those that succeeded. */
  const download = async (id: string, token: string) => {
    const answers = [];
    for (const url of [`/documents/${id}/file`, `/documents/${id}?download=1`]) {
      const res = await fetch(`${s.apiUrl}${url}`, { headers: { authorization: `Bearer ${token}` } });
      const bytes = Buffer.from(await res.arrayBuffer());
      answers.push({ url, status: res.status, bytes: res.status === 200 ? bytes : JSON.parse(bytes.toString('utf8')) });
    }
    return answers;
  };
  const expectDownloads = async (id: string, token: string, bytes: Buffer) => {
    for (const answer of await download(id, token)) {
      expect(answer.status, answer.url).toBe(200);
      expect(answer.bytes, answer.url).toEqual(bytes);
    }
  };
  const expectNotFound = async (id: string, token: string) => {
    for (const answer of await download(id, token)) {
      expect(answer.status, answer.url).toBe(404);
      expect(answer.bytes.detail, answer.url).toBe(DOCUMENT_NOT_FOUND);
    }
  };
  const share = async (conversationId: string, token = s.token) => {
    const res = await s.api<ShareLink>('POST', `/shares/conversations/${conversationId}`, { token });
    expect(res.status).toBe(200);
  };
  const conversationWithPdf = async (token = s.token) => {
    const conversationId = (await s.ask({ conversation_id: null, message: 'Here are the figures' }, token)).control.conversation_id;
    const uploaded = await uploadFile(s, conversationId, 'figures.pdf', pdfBytes, { token });
    expect(uploaded.status).toBe(201);
    return { conversationId, documentId: uploaded.body.data.id };
  };

  it('lets a colleague download only once the conversation is shared, and no longer once it is deleted', async () => {
    const { conversationId, documentId } = await conversationWithPdf();
    await expectDownloads(documentId, s.token, pdfBytes);
    await expectNotFound(documentId, s.otherToken);

    await share(conversationId);
    await expectDownloads(documentId, s.otherToken, pdfBytes);
    await expectDownloads(documentId, s.token, pdfBytes);

    expect((await s.api('DELETE', `/chat/conversations/${conversationId}`)).status).toBe(200);
    await expectNotFound(documentId, s.otherToken);
    await expectNotFound(documentId, s.token);
  });

  it('gives people of another organisation, and a superuser, the same 404 as for an unknown document', async () => {
    const { conversationId, documentId } = await conversationWithPdf();
    await share(conversationId);
    await expectNotFound(documentId, outsiderToken);
    await expectNotFound(documentId, superToken);
    await expectNotFound('00000000-0000-4000-8000-000000000000', s.otherToken);
  });

  it("keeps a superuser's shared document for superusers: the organisation's people get 404", async () => {
    const { conversationId, documentId } = await conversationWithPdf(superToken);
    await share(conversationId, superToken);
    await expectDownloads(documentId, superToken, pdfBytes);
    await expectNotFound(documentId, s.token);
    await expectNotFound(documentId, s.otherToken);
  });

  it('leaves details, the list and delete to the owner', async () => {
    const { conversationId, documentId } = await conversationWithPdf();
    await share(conversationId);
    await expectDownloads(documentId, s.otherToken, pdfBytes);

    const details = await s.api('GET', `/documents/${documentId}`, { token: s.otherToken });
    expect(details.status).toBe(404);
    expect(details.body.detail).toBe(DOCUMENT_NOT_FOUND);
    const list = await s.api('GET', '/documents/', { token: s.otherToken, query: { conversation_id: conversationId } });
    expect(list.status).toBe(404);
    const deleted = await s.api('DELETE', `/documents/${documentId}`, { token: s.otherToken });
    expect(deleted.status).toBe(404);
    expect(deleted.body.detail).toBe(DOCUMENT_NOT_FOUND);

    await expectDownloads(documentId, s.token, pdfBytes);
    expect((await s.api('GET', `/documents/${documentId}`)).status).toBe(200);
  });

  it('keeps a file added after the snapshot to the owner until the conversation is shared again', async () => {
    const { conversationId } = await conversationWithPdf();
    await share(conversationId);
    // Past the snapshot's millisecond: timestamps are ISO text with milliseconds.
    await sleep(5);
    const later = await uploadFile(s, conversationId, 'later.txt', Buffer.from('added after sharing'));
    expect(later.status).toBe(201);
    await expectNotFound(later.body.data.id, s.otherToken);

    await share(conversationId);
    await expectDownloads(later.body.data.id, s.otherToken, Buffer.from('added after sharing'));
  });
});
