// Documents attached to a conversation (spec chat-and-session.md: Chat input box, Upload progress stages,
// Accepted upload types, section 8 Documents). Zod-free: machines/ and the login-free chat chunk read it.

/** Spec section 5, in the spec's order. The server checks the content as well (a name alone proves nothing). */
export const ACCEPTED_EXTENSIONS = [
  '.jpeg', '.jpg', '.png', '.pdf', '.txt', '.docx', '.xlsx', '.pptx', '.csv', '.md', '.mp3', '.m4a',
] as const;
export type AcceptedExtension = (typeof ACCEPTED_EXTENSIONS)[number];

/** The file picker's `accept` attribute. */
export const ACCEPT_ATTRIBUTE = ACCEPTED_EXTENSIONS.join(',');

/** Server default of UPLOAD_MAX_MB. */
export const DEFAULT_UPLOAD_MAX_MB = 25;

/**
 * Where a document is on the server. An upload answers once the file is stored (status 'queued'); ingestion then
 * moves it through 'chunking' (text extracted and split), 'embedding' (only when an embeddings model is
 * configured), 'saving' (chunks written in one transaction) to 'ready', or to 'failed' (`error` says why).
 */
export const DOCUMENT_STATUSES = ['queued', 'chunking', 'embedding', 'saving', 'ready', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** Spec section 4 "Upload progress stages", shown in order; the last lasts until the server says ready. */
export const UPLOAD_STAGES = ['Uploading', 'Chunking text', 'Creating embeddings', 'Saving chunks'] as const;
export type UploadStage = (typeof UPLOAD_STAGES)[number];
/** Spec section 9: how long the first three stages show at least (ms). */
export const UPLOAD_STAGE_MS = [6000, 6000, 8000] as const;

/** Spec section 8, Documents. */
export const DOCUMENT_UPLOADED = 'Document uploaded successfully';
export const DOCUMENTS_UPLOADED = 'Documents uploaded successfully';
export const DOCUMENT_UPLOAD_FAILED = 'Failed to upload document';
export const DOCUMENTS_UPLOAD_FAILED = 'Failed to upload documents';
export const DOCUMENT_DELETED = 'Document deleted successfully';
export const DOCUMENT_DELETE_FAILED = 'Failed to delete document';
export const DOCUMENTS_FETCH_FAILED = 'Failed to fetch documents';

/** Server messages (413, 415, 404). */
export const uploadTooLarge = (maxMb: number) => `The file is larger than the ${maxMb} MB upload limit.`;
export const UPLOAD_TYPE_REFUSED =
  'This file type is not accepted. Attach a .jpeg, .jpg, .png, .pdf, .txt, .docx, .xlsx, .pptx, .csv, .md, .mp3 or .m4a file.';
export const uploadContentMismatch = (extension: string) =>
  `The file's content does not match its ${extension} name, so it was not accepted.`;
export const DOCUMENT_NOT_FOUND = 'Document not found';
/** 413 when an upload would take the organisation's stored files past its package's quota ("50 GB"). */
export const storageFull = (quota: string) =>
  `Your organisation's storage is full (${quota}). Delete files to make room, or ask your administrator.`;
/** 429 past UPLOAD_RATE_LIMIT_PER_USER, given the wait ("1 minute"). */
export const tooManyUploads = (wait: string) => `Too many uploads. Please try again in ${wait}.`;
/** Most files one message can bring along from the new-chat screen. */
export const MAX_DOCUMENTS_PER_MESSAGE = 20;
