import { pathTo, paths } from '../../contract/api-paths';
import type { DocumentList, DocumentView } from '../../contract/documents';
import { fileNameFrom } from '../lib/file-download';
import { api, API_BASE } from './http';

// Documents attached to conversations (spec chat-and-session.md section 7).

/** A conversation's documents, oldest first (GET /documents/?conversation_id=). */
export async function fetchDocuments(conversationId: string, signal?: AbortSignal): Promise<DocumentView[]> {
  return (await api.get<DocumentList>(paths.documents, { query: { conversation_id: conversationId }, signal })).data.documents;
}

/** DELETE /documents/{id}?user_id= (the server takes the owner from the token; `user_id` must be the caller). */
export async function deleteDocument(id: string, userId?: string | null): Promise<void> {
  await api.delete(pathTo(paths.document, { id }), { query: { user_id: userId ?? undefined } });
}

/**
 * A document's file through the authenticated client (an <a href> cannot carry the bearer token), named as the
 * server names it, else `fallbackName`. `path` is the API path under the prefix (`/documents/{id}/file`).
 */
export async function downloadFile(path: string, fallbackName: string): Promise<{ blob: Blob; fileName: string }> {
  // Concurrent: two different documents may download side by side; the same one twice is one download anyway.
  const response = await api.download(path, { concurrent: true });
  return { blob: await response.blob(), fileName: fileNameFrom(response.headers.get('content-disposition'), fallbackName) };
}

/** GET /documents/{id}/file */
export const documentFilePath = (id: string) => pathTo(paths.documentFile, { id });


/**
 * The API path (under the prefix) of one of our own file URLs as a marker holds it (`/api/v1/documents/{id}/file`,
 * or the same on this origin), so the client can fetch it with the token; null for anything else.
 */
export function apiPathOf(url: string): string | null {
  let resolved: URL;
  try {
    resolved = new URL(url, location.origin);
  } catch {
    return null;
  }
  if (resolved.origin !== location.origin || !resolved.pathname.startsWith(`${API_BASE}/`)) return null;
  return resolved.pathname.slice(API_BASE.length);
}

/**
 * POST /documents/upload/{conversationId}?user_id= (into a conversation), or POST /documents/?user_id= on the
 * new-chat screen (the first message's `document_ids` links it): the file in the multipart field `file`. Answers
 * once the file is stored (status 'queued'). Concurrent: a batch's files share the URL and go side by side.
 */
export async function uploadDocument(
  file: File,
  conversationId: string | null,
  userId: string | null,
  signal?: AbortSignal,
): Promise<DocumentView> {
  const form = new FormData();
  form.append('file', file, file.name);
  const path = conversationId === null ? paths.documents : pathTo(paths.documentUpload, { conversationId });
  return (await api.post<DocumentView>(path, form, { query: { user_id: userId ?? undefined }, signal, concurrent: true })).data;
}

/** GET /documents/{id}: the document with its ingestion status. */
export async function fetchDocument(id: string, signal?: AbortSignal): Promise<DocumentView> {
  return (await api.get<DocumentView>(pathTo(paths.document, { id }), { signal, concurrent: true })).data;
}
