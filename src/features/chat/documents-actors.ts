import { fromPromise } from 'xstate';
import type { DocumentView } from '../../../contract/documents';
import { conversationDocumentsMachine, type DocumentRef } from '../../../machines/conversation-documents.machine';
import { pagerMachine, type PageRequest, type PageResult } from '../../../machines/pager.machine';
import {
  documentPollMachine,
  uploadMachine,
  type DeleteFileInput,
  type DocumentCheckInput,
  type UploadFilesInput,
  type UploadOutcome,
} from '../../../machines/upload.machine';
import { ApiError } from '../../api/api-error';
import { withAnswerStatus } from '../../lib/answer-status';
import { documentFilePath, type deleteDocument, type fetchDocument, type fetchDocuments, type uploadDocument } from '../../api/documents';
import type { saveApiFile } from '../../lib/own-file-download';

export interface ConversationDocumentsApi {
  fetchDocuments: typeof fetchDocuments;
  deleteDocument: typeof deleteDocument;
  /** Fetches a file with the token and hands it to the browser (an API path, the name to save it under). */
  saveApiFile: typeof saveApiFile;
  /** The signed-in person's id, for DELETE's `user_id` (the server checks it is the caller). */
  currentUserId(): string | null;
}

/** The open conversation's documents (header count, Attached Documents) with their calls. */
export function defineConversationDocumentsMachine({ api }: { api: ConversationDocumentsApi }) {
  return conversationDocumentsMachine.provide({
    actors: {
      list: pagerMachine.provide({
        actors: {
          // The server sends every document of the conversation at once (it does not page them): one page of all.
          // The HTTP status rides on a failure, so the pager's quietStatuses can leave a 404 to the chat.
          fetchPage: fromPromise<PageResult, PageRequest>(async ({ input, signal }) => {
            const documents = await withAnswerStatus(api.fetchDocuments(String(input.filters.conversationId), signal));
            return { items: documents, page: 1, total: documents.length, totalPages: 1 };
          }),
        },
      }),
      deleteDocument: fromPromise<unknown, { id: string }>(({ input }) => api.deleteDocument(input.id, api.currentUserId())),
      downloadDocument: fromPromise<unknown, DocumentRef>(({ input }) => api.saveApiFile(documentFilePath(input.id), input.filename)),
    },
  });
}

export interface UploadApi {
  uploadDocument: typeof uploadDocument;
  fetchDocument: typeof fetchDocument;
  deleteDocument: typeof deleteDocument;
  /** The signed-in person's id, for `user_id` (the server checks it is the caller). */
  currentUserId(): string | null;
}

/** The server's sentence for a refused upload (413, 415, ...); null for a dropped connection. */
const refusal = (error: unknown) => (error instanceof ApiError && error.status !== 0 && error.detail ? error.detail : null);

/** The input box's attachments (machines/upload.machine.ts) with their calls. */
export function defineUploadMachine({ api }: { api: UploadApi }) {
  return uploadMachine.provide({
    actors: {
      // Every file of the batch side by side; each one's refusal is its own (one bad file does not sink the rest).
      uploadFiles: fromPromise<UploadOutcome[], UploadFilesInput>(({ input, signal }) =>
        Promise.all(
          input.files.map((file) =>
            api.uploadDocument(file, input.conversationId, api.currentUserId(), signal).then(
              (document): UploadOutcome => ({ name: file.name, document, detail: null }),
              (error: unknown): UploadOutcome => ({ name: file.name, document: null, detail: refusal(error) }),
            ),
          ),
        ),
      ),
      watch: documentPollMachine.provide({
        actors: {
          check: fromPromise<DocumentView[], DocumentCheckInput>(({ input, signal }) =>
            Promise.all(input.ids.map((id) => api.fetchDocument(id, signal))),
          ),
        },
      }),
      deleteDocument: fromPromise<unknown, DeleteFileInput>(({ input }) => api.deleteDocument(input.id, api.currentUserId())),
    },
  });
}
