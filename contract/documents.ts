import { z } from 'zod';
import { DOCUMENT_STATUSES } from './documents-constants';
import { idField } from './fields';

// Documents attached to conversations (spec chat-and-session.md section 3 "Document", section 7). The
// constants and texts are in documents-constants.ts (zod-free).

/** A document as every documents endpoint answers it. */
export const documentView = z.object({
  id: z.string(),
  filename: z.string(),
  /** Bytes. */
  size: z.number().int().min(0),
  /** MIME type, e.g. application/pdf. */
  type: z.string(),
  created_at: z.string(),
  /** The marker that shows this file inside a message: an image marker for images, else a document marker. */
  file_path_marker: z.string(),
  conversation_id: z.string().nullable(),
  status: z.enum(DOCUMENT_STATUSES),
  /** Something the reader should know (a scanned PDF without text, audio not transcribed), else null. */
  note: z.string().nullable(),
  /** Why ingestion failed (status 'failed'), else null. */
  error: z.string().nullable(),
  /** API URL downloading the file with its name (bearer token). */
  download_url: z.string(),
  /** For images: a URL an <img> can load (no token needed), else null. */
  preview_url: z.string().nullable(),
});
export type DocumentView = z.infer<typeof documentView>;

/** POST /documents/upload/{conversationId} */
export const documentUploadParams = z.object({ conversationId: idField('conversationId') });
/** `?user_id=` on upload and delete: must be the caller (the owner always comes from the token). */
export const documentUserQuery = z.object({ user_id: idField('user_id').optional() });
/** GET /documents/?conversation_id= : a conversation's documents, oldest first. */
export const documentListQuery = z.object({ conversation_id: idField('conversation_id') });
export const documentList = z.object({ documents: z.array(documentView) });
export type DocumentList = z.infer<typeof documentList>;
/** GET /files/{key} */
export const fileKeyParams = z.object({ key: idField('key') });
