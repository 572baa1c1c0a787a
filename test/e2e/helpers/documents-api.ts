import { expect, type APIRequestContext } from '@playwright/test';
import type { DocumentView } from '../../../contract/documents';

// Documents set up through the real API (the multipart upload the input box sends), for tests that start from a
// conversation which already has documents.

export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** POST /documents/upload/{conversationId} with one file in the field `file`; returns the stored document. */
export async function uploadDocument(request: APIRequestContext, token: string, conversationId: string, file: UploadFile) {
  const response = await request.post(`/api/v1/documents/upload/${encodeURIComponent(conversationId)}`, {
    headers: auth(token),
    multipart: { file },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: DocumentView }).data;
}

/** GET /documents/{id} until ingestion is over ('ready' or 'failed'); returns the document as it then is. */
export async function waitUntilProcessed(request: APIRequestContext, token: string, id: string, timeout = 30_000) {
  let last: DocumentView | null = null;
  await expect(async () => {
    const response = await request.get(`/api/v1/documents/${encodeURIComponent(id)}`, { headers: auth(token) });
    expect(response.ok()).toBe(true);
    last = ((await response.json()) as { data: DocumentView }).data;
    expect(['ready', 'failed']).toContain(last.status);
  }).toPass({ timeout });
  return last as unknown as DocumentView;
}

/** A small text document holding `sentence` (and a little around it, so it is a passage of its own). */
export const textDocument = (name: string, sentence: string): UploadFile => ({
  name,
  mimeType: 'text/plain',
  buffer: Buffer.from(`Internal note.\n\n${sentence}\n\nEnd of note.\n`, 'utf8'),
});
