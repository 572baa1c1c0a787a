import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { API_PREFIX } from '../../../contract/api-paths';
import type { DocumentList, DocumentView } from '../../../contract/documents';
import { DOCUMENT_NOT_FOUND, tooManyUploads, type AcceptedExtension } from '../../../contract/documents-constants';
import { documentMarker, imageMarker } from '../../../shared/markers';
import type { AppContext } from '../../context';
import {
  deleteOwnDocument,
  findDocument,
  findDocumentByFileKey,
  findOwnDocument,
  insertDocument,
  listConversationDocuments,
  type DocumentRecord,
} from '../../db/repositories/documents';
import type { UserRecord } from '../../db/repositories/users';
import { inTransaction } from '../../db/transaction';
import { isForeignKeyViolation } from '../../db/unique-violation';
import { queueIngestion } from './ingest/ingest-document';
import { CONVERSATION_NOT_FOUND, requireOwnConversation } from '../conversations/access';
import { removeStoredFiles } from './documents-files';
import { packageNameOf } from '../organisation/entitlements';
import { ForbiddenError, NotFoundError } from '../errors';
import { newStorageKey } from '../../platform/file-storage';
import { enforceRateLimits } from '../../platform/rate-limit';
import { findReadableShareOfConversation } from '../conversations/shares';
import { claimStorage, storageQuotaMbOf } from './storage-quota';
import { checkUpload, isInlineImage } from './upload-check';

export const NOT_YOUR_USER_ID = 'user_id must be your own: files are always uploaded and deleted as the signed-in user';
/** Longest display name kept (characters). */
const MAX_FILENAME_CHARS = 255;

/** The download URL of a document (bearer token), as its marker and documentView name it. */
export const documentFileUrl = (id: string) => `${API_PREFIX}/documents/${id}/file`;
/** The capability URL an <img> loads without a token (GET /files/{key}). */
export const fileKeyUrl = (fileKey: string) => `${API_PREFIX}/files/${fileKey}`;

/** A document as every documents endpoint answers it (contract/documents.ts). */
export function toDocumentView(record: DocumentRecord): DocumentView {
  const downloadUrl = documentFileUrl(record.id);
  const previewUrl = isInlineImage(record.mime) ? fileKeyUrl(record.file_key) : null;
  return {
    id: record.id,
    filename: record.filename,
    size: record.size,
    type: record.mime,
    created_at: record.created_at,
    file_path_marker: previewUrl ? imageMarker(previewUrl, record.filename) : documentMarker(downloadUrl, record.filename),
    conversation_id: record.conversation_id,
    status: record.status,
    note: record.note,
    error: record.error,
    download_url: downloadUrl,
    preview_url: previewUrl,
  };
}

// Bidirectional overrides and isolates (U+202A-E, U+2066-9) and marks (LRM, RLM, ALM U+061C) can make "exe.pdf"
// read as "fdp.exe"; zero-width characters (U+200B-D, U+2060-4, U+FEFF) hide inside a name that looks like another.
const INVISIBLE = /[\p{Cc}\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/gu;

/**
 * The name shown for a file: its last path segment (a browser may send "C:\\Users\\...\\x.pdf"), without control or
 * direction characters, spaces collapsed, at most 255 characters with the extension kept. For display only: files
 * are stored under keys the server makes.
 */
export function sanitiseFilename(raw: string): string {
  const base = raw.normalize('NFC').split(/[\\/]/).pop() ?? '';
  const clean = base.replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
  const chars = Array.from(clean || 'file');
  if (chars.length <= MAX_FILENAME_CHARS) return chars.join('');
  const dot = clean.lastIndexOf('.');
  const extension = dot > 0 ? Array.from(clean.slice(dot)) : [];
  const keep = extension.length < 20 ? extension : [];
  return chars.slice(0, MAX_FILENAME_CHARS - keep.length).join('') + keep.join('');
}

/** `?user_id=` may only name the caller: the owner always comes from the token. */
function requireSelf(user: UserRecord, userId: string | undefined): void {
  if (userId !== undefined && userId !== user.id) throw new ForbiddenError(NOT_YOUR_USER_ID, 'not_your_user_id');
}

async function requireOwnDocument(ctx: AppContext, user: UserRecord, id: string): Promise<DocumentRecord> {
  const record = await findOwnDocument(ctx.db, user.id, id);
  if (!record) throw new NotFoundError(DOCUMENT_NOT_FOUND);
  return record;
}

export interface UploadTarget {
  /** null: uploaded on the new-chat screen; it joins the conversation the first message creates. */
  conversationId: string | null;
  /** `?user_id=`, when given. */
  userId?: string;
}

export interface IncomingFile {
  filename: string;
  bytes: Buffer;
}

/**
 * POST /documents/upload/{conversationId} and POST /documents/. Who, how often (UPLOAD_RATE_LIMIT_PER_USER, counted
 * first so a parallel burst cannot slip through) and where are checked before the file is read (`readFile`), so a
 * refused request costs no upload; the file is checked by content, then against the organisation's storage quota
 * as its row is written. Answers once the file is stored (status 'queued'): ingestion goes on in the background.
 */
export async function uploadDocument(
  ctx: AppContext,
  user: UserRecord,
  target: UploadTarget,
  readFile: () => Promise<IncomingFile>,
): Promise<DocumentView> {
  requireSelf(user, target.userId);
  await enforceRateLimits(ctx.rateLimits, [
    { key: `uploads:user:${user.id}`, rule: ctx.config.rateLimits.uploadsPerUser, refusal: tooManyUploads },
  ]);
  if (target.conversationId !== null) await requireOwnConversation(ctx.db, user.id, target.conversationId);
  // A superuser belongs to no organisation, so to no quota.
  const quotaMb = user.client_id ? storageQuotaMbOf(await packageNameOf(ctx.db, user), ctx.config.storageQuotaMb) : null;
  const file = await readFile();
  const filename = sanitiseFilename(file.filename);
  const checked = await checkUpload(filename, file.bytes);
  const record = await storeFile(ctx, user, {
    conversationId: target.conversationId,
    filename,
    mime: checked.mime,
    extension: checked.extension,
    bytes: file.bytes,
    origin: 'upload',
    status: 'queued',
    quotaMb,
  });
  await queueIngestion(ctx, record.id);
  return toDocumentView(record);
}

export interface ConversationFile {
  conversationId: string;
  filename: string;
  mime: string;
  extension: AcceptedExtension;
  bytes: Buffer;
  origin: 'generated';
}

/**
 * A file the server made for a conversation (a generated image): stored and recorded like an upload. Images are
 * ready at once (nothing to extract); anything else is ingested like an upload. The caller owns the conversation.
 * It counts towards the organisation's storage but is never refused for it: the reply it belongs to was already
 * paid for, and its size is the image model's, not the person's choice.
 */
export async function storeConversationFile(ctx: AppContext, user: UserRecord, file: ConversationFile): Promise<DocumentRecord> {
  const image = isInlineImage(file.mime);
  const record = await storeFile(ctx, user, {
    ...file,
    filename: sanitiseFilename(file.filename),
    status: image ? 'ready' : 'queued',
    quotaMb: null,
  });
  if (!image) await queueIngestion(ctx, record.id);
  return record;
}

interface StoredFile {
  conversationId: string | null;
  filename: string;
  mime: string;
  extension: AcceptedExtension;
  bytes: Buffer;
  origin: DocumentRecord['origin'];
  status: DocumentRecord['status'];
  /** The organisation's storage quota the file must fit in; null: not checked. */
  quotaMb: number | null;
}

/**
 * Bytes first, then the row: a row never points at a missing file, and a failed insert (or a file over the storage
 * quota, checked in the insert's transaction) takes its file away.
 */
async function storeFile(ctx: AppContext, user: UserRecord, file: StoredFile): Promise<DocumentRecord> {
  const storageKey = newStorageKey();
  await ctx.files.put(storageKey, file.bytes);
  const clientId = user.client_id;
  try {
    return await inTransaction(ctx.db, async (trx) => {
      if (file.quotaMb !== null && clientId) await claimStorage(trx, clientId, file.bytes.length, file.quotaMb);
      return insertDocument(trx, {
        user_id: user.id,
        client_id: user.client_id,
        department_id: user.department_id,
        unit_id: user.unit_id,
        conversation_id: file.conversationId,
        filename: file.filename,
        extension: file.extension,
        mime: file.mime,
        size: file.bytes.length,
        origin: file.origin,
        storage_key: storageKey,
        file_key: randomBytes(32).toString('base64url'),
        status: file.status,
      });
    });
  } catch (err) {
    await removeStoredFiles(ctx, [storageKey]);
    // The conversation was deleted while the file arrived: the same answer as if it had been gone before.
    if (isForeignKeyViolation(err)) throw new NotFoundError(CONVERSATION_NOT_FOUND);
    throw err;
  }
}

/** GET /documents/{id} */
export async function getDocument(ctx: AppContext, user: UserRecord, id: string): Promise<DocumentView> {
  return toDocumentView(await requireOwnDocument(ctx, user, id));
}

/** GET /documents/?conversation_id= : the conversation must be the caller's; oldest first. */
export async function listDocuments(ctx: AppContext, user: UserRecord, conversationId: string): Promise<DocumentList> {
  await requireOwnConversation(ctx.db, user.id, conversationId);
  return { documents: (await listConversationDocuments(ctx.db, conversationId)).map(toDocumentView) };
}

/** DELETE /documents/{id}: the row and its chunks, then the stored file. */
export async function deleteDocument(ctx: AppContext, user: UserRecord, id: string, userId: string | undefined): Promise<void> {
  requireSelf(user, userId);
  const storageKey = await deleteOwnDocument(ctx.db, user.id, id);
  if (storageKey === undefined) throw new NotFoundError(DOCUMENT_NOT_FOUND);
  await removeStoredFiles(ctx, [storageKey]);
}

export interface OpenedFile {
  record: DocumentRecord;
  stream: Readable;
}

async function openStored(ctx: AppContext, record: DocumentRecord | undefined): Promise<OpenedFile> {
  if (!record) throw new NotFoundError(DOCUMENT_NOT_FOUND);
  try {
    return { record, stream: await ctx.files.open(record.storage_key) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    // Deleted between the read of its row and the open.
    throw new NotFoundError(DOCUMENT_NOT_FOUND);
  }
}

/**
 * The owner's document, or one of a shared conversation for whoever may read that share (the shared page's document
 * cards download with the viewer's token). Only while the conversation has a share, and only documents that were
 * there when its snapshot was taken: a file added after sharing is in no shared message and stays the owner's.
 * Everything else is undefined, as for an unknown id.
 */
async function findDownloadableDocument(ctx: AppContext, user: UserRecord, id: string): Promise<DocumentRecord | undefined> {
  const record = await findDocument(ctx.db, id);
  if (!record || record.user_id === user.id) return record;
  if (record.conversation_id === null) return undefined;
  const share = await findReadableShareOfConversation(ctx.db, user, record.conversation_id);
  // ISO-8601 UTC text on both databases: compares as text.
  return share && record.created_at <= share.snapshot_at ? record : undefined;
}

/** GET /documents/{id}/file (and ?download=1): the owner's file, or a shared conversation's for its readers. */
export async function openDocumentFile(ctx: AppContext, user: UserRecord, id: string): Promise<OpenedFile> {
  return openStored(ctx, await findDownloadableDocument(ctx, user, id));
}

/** GET /files/{key}: whoever holds the key (an <img> cannot send a token); unknown keys are 404. */
export async function openFileByKey(ctx: AppContext, fileKey: string): Promise<OpenedFile> {
  return openStored(ctx, await findDocumentByFileKey(ctx.db, fileKey));
}
