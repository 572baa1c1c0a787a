import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paths } from '../../contract/api-paths';
import {
  documentList,
  documentListQuery,
  documentUploadParams,
  documentUserQuery,
  documentView,
  fileKeyParams,
} from '../../contract/documents';
import { DOCUMENT_DELETED, uploadTooLarge } from '../../contract/documents-constants';
import { messageOnly, successEnvelope } from '../../contract/envelope';
import { choiceField, idParams } from '../../contract/fields';
import type { AppContext } from '../context';
import { currentUser, type AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import {
  deleteDocument,
  getDocument,
  listDocuments,
  openDocumentFile,
  openFileByKey,
  uploadDocument,
  type IncomingFile,
  type OpenedFile,
  type UploadTarget,
} from '../services/documents/documents';
import { contentDisposition, contentTypeOf, dispositionForKey } from '../services/documents/documents-download';
import { InvalidError, TooLargeError } from '../services/errors';

const MB = 1024 * 1024;
/** A year: a file key names one file forever (a new upload gets a new key), so browsers may keep it. */
const IMMUTABLE = 'private, max-age=31536000, immutable';

export const NO_FILE = 'Attach one file, in the multipart form field "file".';
export const UNREADABLE_UPLOAD = 'The upload could not be read. Please try again.';

/** `?download=1` on GET /documents/{id}: the file itself, like .../file. */
const documentQuery = z.object({ download: choiceField('download', ['1', 'true']).optional() });

/** Who may download (GET /documents/{id}/file and ?download=1): the owner, and the readers of a shared conversation. */
const SHARED_DOWNLOAD =
  "Besides its owner, a signed-in person who may read a share of the document's conversation (the same rule as " +
  "GET /shares/{shareId}: the conversation's organisation; a superuser's shares for superusers) may download it, " +
  "while the share exists and if the document was there when the share's snapshot was taken: the shared page's " +
  'document cards. Anyone else, and an unknown id, is 404.';

const UPLOAD_DESCRIPTION =
  'multipart/form-data with one file in the field `file`. Accepted: .jpeg .jpg .png .pdf .txt .docx .xlsx .pptx ' +
  '.csv .md .mp3 .m4a, checked by content as well as by name (415 otherwise); above UPLOAD_MAX_MB 413, and 413 ' +
  "(code storage_full) when it would take the organisation's stored files past its package's quota. At most " +
  'UPLOAD_RATE_LIMIT_PER_USER uploads per person per minute (429 with Retry-After). `user_id`, ' +
  'when given, must be the caller (403): the owner always comes from the token. Answers once the file is stored ' +
  "(status 'queued'); poll GET /documents/{id} for ingestion's progress until 'ready' or 'failed'.";

/**
 * Reads the request's one file part into memory (at most UPLOAD_MAX_MB: multipart stops there). A file cut off at
 * the limit is refused with 413, never stored; a body that is not a readable multipart form is the client's 400.
 */
async function readUpload(request: FastifyRequest, maxMb: number): Promise<IncomingFile> {
  if (!request.isMultipart()) throw new InvalidError(NO_FILE, { file: NO_FILE });
  try {
    const part = await request.file();
    if (!part || part.fieldname !== 'file') throw new InvalidError(NO_FILE, { file: NO_FILE });
    const bytes = await part.toBuffer();
    if (part.file.truncated) throw new TooLargeError(uploadTooLarge(maxMb), 'upload_too_large');
    // Browsers write a quote in a file name as %22 (WHATWG multipart/form-data encoding); line breaks as %0A/%0D,
    // which the display name drops anyway.
    return { filename: part.filename.replace(/%22/g, '"'), bytes };
  } catch (err) {
    if (err instanceof InvalidError || err instanceof TooLargeError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new TooLargeError(uploadTooLarge(maxMb), 'upload_too_large');
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new InvalidError(NO_FILE, { file: NO_FILE });
    }
    // Busboy's own errors (a truncated or malformed form, a client that went away) are the request's, not ours.
    request.log.info({ err }, 'unreadable upload');
    throw new InvalidError(UNREADABLE_UPLOAD);
  }
}

function sendFile(reply: FastifyReply, { record, stream }: OpenedFile, disposition: 'attachment' | 'inline', cache: string) {
  return reply
    .header('content-type', contentTypeOf(record.mime))
    .header('content-length', String(record.size))
    .header('content-disposition', contentDisposition(disposition, record.filename))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', cache)
    .send(stream);
}

/** Documents and images attached to conversations (spec chat-and-session.md sections 3, 5, 7, 8). */
export async function documentRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const maxMb = ctx.config.uploadMaxMb;
  // Its own scope, so multipart bodies are accepted by these routes only.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: maxMb * MB, files: 1, fields: 4, fieldSize: 1024, parts: 5, headerPairs: 100 },
    });
    const api = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['documents'];
    const auth = guards.requireAuth;

    const upload = async (request: FastifyRequest, reply: FastifyReply, target: UploadTarget) => {
      const view = await uploadDocument(ctx, currentUser(request), target, () => readUpload(request, maxMb));
      return reply.code(201).send(ok(view));
    };

    api.post(
      paths.documentUpload,
      {
        onRequest: auth,
        schema: {
          summary: 'Upload a document or image into one of my conversations',
          description: `${UPLOAD_DESCRIPTION} Another user's conversation is 404.`,
          tags,
          consumes: ['multipart/form-data'],
          params: documentUploadParams,
          querystring: documentUserQuery,
          response: { 201: successEnvelope(documentView), ...errorResponses(400, 403, 404, 413, 415, 429) },
        },
      },
      (request, reply) =>
        upload(request, reply, { conversationId: request.params.conversationId, userId: request.query.user_id }),
    );

    api.post(
      paths.documents,
      {
        onRequest: auth,
        schema: {
          summary: 'Upload a document or image before any conversation exists (the new-chat screen)',
          description:
            `${UPLOAD_DESCRIPTION} Name it in the first message's \`document_ids\` and it joins the conversation ` +
            'that message creates.',
          tags,
          consumes: ['multipart/form-data'],
          querystring: documentUserQuery,
          response: { 201: successEnvelope(documentView), ...errorResponses(400, 403, 413, 415, 429) },
        },
      },
      (request, reply) => upload(request, reply, { conversationId: null, userId: request.query.user_id }),
    );

    api.get(
      paths.documents,
      {
        onRequest: auth,
        schema: {
          summary: "A conversation's documents, oldest first",
          description: "Another user's conversation is 404.",
          tags,
          querystring: documentListQuery,
          response: { 200: successEnvelope(documentList), ...errorResponses(400, 404) },
        },
      },
      async (request) => ok(await listDocuments(ctx, currentUser(request), request.query.conversation_id)),
    );

    api.get(
      paths.document,
      {
        onRequest: auth,
        schema: {
          summary: 'One of my documents (with its ingestion status), or with ?download=1 the file itself',
          description:
            'With `download=1` the answer is the file, as from GET /documents/{id}/file, under the same rule: ' +
            `${SHARED_DOWNLOAD} Without it, another user's document is 404 (details are the owner's only).`,
          tags,
          params: idParams,
          querystring: documentQuery,
          response: {
            200: successEnvelope(documentView).describe('The document; with download=1 the file (any Content-Type)'),
            ...errorResponses(400, 404),
          },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        if (request.query.download) {
          return sendFile(reply, await openDocumentFile(ctx, user, request.params.id), 'attachment', 'private, no-store');
        }
        return ok(await getDocument(ctx, user, request.params.id));
      },
    );

    api.get(
      paths.documentFile,
      {
        onRequest: auth,
        schema: {
          summary: 'Download one of my documents, or one of a conversation shared with me, with its name',
          description: `Content-Type is the document's; Content-Disposition attachment. ${SHARED_DOWNLOAD}`,
          tags,
          params: idParams,
          response: { 200: z.string().describe('The file'), ...errorResponses(404) },
          produces: ['application/octet-stream'],
        },
      },
      async (request, reply) =>
        sendFile(reply, await openDocumentFile(ctx, currentUser(request), request.params.id), 'attachment', 'private, no-store'),
    );

    api.delete(
      paths.document,
      {
        onRequest: auth,
        schema: {
          summary: 'Delete one of my documents (its passages and stored file go too)',
          description: "`user_id`, when given, must be the caller (403). Another user's document is 404.",
          tags,
          params: idParams,
          querystring: documentUserQuery,
          response: { 200: successEnvelope(messageOnly), ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => {
        await deleteDocument(ctx, currentUser(request), request.params.id, request.query.user_id);
        return ok({ message: DOCUMENT_DELETED }, DOCUMENT_DELETED);
      },
    );

    api.get(
      paths.fileByKey,
      {
        schema: {
          summary: 'A file by its unguessable key (images in messages: an <img> cannot send a token)',
          description:
            'No token: the key is the capability. PNG and JPEG images are served inline and may be cached; any other ' +
            'file downloads (attachment). An unknown key is 404.',
          tags,
          params: fileKeyParams,
          response: { 200: z.string().describe('The file'), ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        const opened = await openFileByKey(ctx, request.params.key);
        const disposition = dispositionForKey(opened.record.mime);
        return sendFile(reply, opened, disposition, disposition === 'inline' ? IMMUTABLE : 'private, no-store');
      },
    );
  });
}
