import fs from 'node:fs/promises';
import path from 'node:path';
import type { DocumentView } from '../../../contract/documents';
import type { ChatServer } from './chat-fixtures';

// Uploads and reads through the real HTTP API (fetch + FormData: the multipart body a browser sends).

export interface Uploaded {
  status: number;
  body: { status: string; data: DocumentView; detail?: string; fields?: Record<string, string> };
}

/** POST /documents/upload/{conversationId} (or /documents/ with conversationId null) with one file. */
export async function uploadFile(
  s: Pick<ChatServer, 'apiUrl' | 'token'>,
  conversationId: string | null,
  filename: string,
  bytes: Uint8Array,
  opts: { token?: string; field?: string; userId?: string; type?: string } = {},
): Promise<Uploaded> {
  const form = new FormData();
  // A copy in a plain ArrayBuffer: Blob does not take a view of a possibly shared buffer.
  form.append(opts.field ?? 'file', new Blob([new Uint8Array(bytes)], { type: opts.type ?? 'application/octet-stream' }), filename);
  const query = opts.userId !== undefined ? `?user_id=${encodeURIComponent(opts.userId)}` : '';
  const url = conversationId === null ? `${s.apiUrl}/documents/${query}` : `${s.apiUrl}/documents/upload/${conversationId}${query}`;
  const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${opts.token ?? s.token}` }, body: form });
  return { status: res.status, body: (await res.json()) as Uploaded['body'] };
}

/** Every stored file under DATA_DIR/files (relative paths), to see that a refused upload left nothing behind. */
export async function storedFiles(dataDir: string): Promise<string[]> {
  const root = path.join(dataDir, 'files');
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name))).sort();
}
