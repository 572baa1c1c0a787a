import { assertEvent, assign, raise, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import type { DocumentView } from '../contract/documents';
import { DOCUMENT_DELETE_FAILED, DOCUMENT_DELETED, DOCUMENTS_FETCH_FAILED } from '../contract/documents-constants';
import { isNotFoundFailure } from './load-failure';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { report, type ReportsTo } from './report';

/**
 * The documents of the open conversation (spec chat-and-session.md section 2 "Chat screen": the 'N Document(s)'
 * header button, the Attached Documents modal, the confirmation Delete Document, "documents download when
 * clicked"; section 5 'No conversation selected'; section 8 Documents). The chat-screen machine invokes it (id
 * `documents`) for its whole life and tells it which conversation is open (`conversation.open`); another
 * conversation starts it afresh (its list, the modal and a download in flight end), the same one changes nothing.
 *
 * - `none`: no conversation (the new-chat screen): no documents; `documents.open` says 'No conversation selected'.
 * - `conversation` (parallel):
 *   - `list`: `loading` (tag `loading`: `loadDocuments`, GET /documents/?conversation_id=) -> `loaded`, or
 *     `failed` ('Failed to fetch documents'; `documents.retry`), or `notFound` (a 404: the conversation is
 *     not this person's; no toast, the chat says 'Conversation not found' once). `documents.changed` (an upload finished, an
 *     exchange completed: a generated image is a new document) loads again; a load in flight starts over, so the
 *     answer includes the change. The documents already shown stay while it loads (the header count does not flicker).
 *   - `modal`: Attached Documents, `closed` | `open` (opening loads the list again: statuses move on while
 *     documents are processed). In `open`: `document.delete` asks 'Delete Document' (`confirmingDelete`),
 *     `delete.confirm` deletes (`deleting`, tag `deleting`: `deleteDocument`) -> 'Document deleted successfully'
 *     and it leaves the list, or 'Failed to delete document' and it stays; `delete.cancel` goes back.
 *   - `download`: `document.download` (a click on a document) -> `downloading` (tag `downloading`:
 *     `downloadDocument`, the authenticated download; the actor hands the file to the browser); one at a time.
 */

export const NO_CONVERSATION_SELECTED = 'No conversation selected';
/** Not in the spec's catalogue (which names no download failure); worded like its other documents texts. */
export const DOCUMENT_DOWNLOAD_FAILED = 'Failed to download document';

/** The header button's label, the spec's 'N Document(s)' read as English: '1 Document', '0 Documents', '3 Documents'. */
export const documentsLabel = (count: number) => `${count} ${count === 1 ? 'Document' : 'Documents'}`;

export interface ConversationDocumentsInput extends ReportsTo {
  conversationId: string | null;
}

export interface ConversationDocumentsContext extends ReportsTo {
  conversationId: string | null;
  /** The open conversation's documents, oldest first (as the server lists them). */
  documents: DocumentView[];
  /** The document the delete confirmation (and the delete) is about. */
  deletingId: string | null;
  /** The document being downloaded. */
  downloadingId: string | null;
}

export interface DocumentRef {
  id: string;
  filename: string;
}

export type ConversationDocumentsEvent =
  /** From the screen: the conversation the URL opened (null: a new chat). */
  | { type: 'conversation.open'; conversationId: string | null }
  /** From the screen: this conversation's documents changed elsewhere (an upload finished, a reply was saved). */
  | { type: 'documents.changed' }
  | { type: 'documents.retry' }
  | { type: 'documents.open' }
  | { type: 'documents.close' }
  | { type: 'document.delete'; id: string }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'document.download'; id: string };

type ActorOutcome =
  | DoneActorEvent<DocumentView[], 'loadDocuments'>
  | ErrorActorEvent<unknown, 'loadDocuments'>
  | DoneActorEvent<unknown, 'deleteDocument'>
  | ErrorActorEvent<unknown, 'deleteDocument'>
  | DoneActorEvent<unknown, 'downloadDocument'>
  | ErrorActorEvent<unknown, 'downloadDocument'>;

export const conversationDocumentsMachine = setup({
  types: {
    context: {} as ConversationDocumentsContext,
    events: {} as ConversationDocumentsEvent | ActorOutcome,
    input: {} as ConversationDocumentsInput,
    emitted: {} as Notice,
    tags: {} as 'loading' | 'deleting' | 'downloading',
    children: {} as { loadDocuments: 'loadDocuments'; deleteDocument: 'deleteDocument'; downloadDocument: 'downloadDocument' },
  },
  actors: {
    loadDocuments: notProvided<DocumentView[], { conversationId: string }>('loadDocuments'),
    deleteDocument: notProvided<unknown, { id: string }>('deleteDocument'),
    downloadDocument: notProvided<unknown, DocumentRef>('downloadDocument'),
  },
  guards: {
    isAnotherConversation: ({ context, event }) => {
      assertEvent(event, 'conversation.open');
      return event.conversationId !== context.conversationId;
    },
    hasConversation: ({ context }) => context.conversationId !== null,
    conversationNotFound: ({ event }) => isNotFoundFailure((event as { error?: unknown }).error),
    isListed: ({ context, event }) => {
      assertEvent(event, ['document.delete', 'document.download']);
      return context.documents.some((d) => d.id === event.id);
    },
  },
  actions: {
    openConversation: assign(({ event }) => {
      assertEvent(event, 'conversation.open');
      return { conversationId: event.conversationId, documents: [], deletingId: null, downloadingId: null };
    }),
    reportFailure: report((_: unknown, params: { text: string }) => notice('error', params.text)),
  },
}).createMachine({
  id: 'conversationDocuments',
  context: ({ input }) => ({ conversationId: input.conversationId, documents: [], deletingId: null, downloadingId: null, parent: input.parent }),
  initial: 'pick',
  on: {
    // Leaving through `pick` and entering `conversation` again restarts everything in it: the load is for the new
    // conversation, the modal closes.
    'conversation.open': { guard: 'isAnotherConversation', target: '.pick', actions: 'openConversation' },
  },
  states: {
    // Where the input or the opened conversation leads.
    pick: { description: 'A conversation opens: its documents, or none for a new chat, are chosen at once (never seen).', always: [{ guard: 'hasConversation', target: 'conversation' }, { target: 'none' }] },
    none: {
      description: 'A new chat: there are no documents, and opening them says No conversation selected.',
      on: { 'documents.open': { actions: { type: 'reportFailure', params: { text: NO_CONVERSATION_SELECTED } } } },
    },
    conversation: {
      description: 'The documents of the open conversation, their modal and a download.',
      type: 'parallel',
      states: {
        list: {
          description: 'The documents behind the N Document(s) header button.',
          initial: 'loading',
          states: {
            loading: {
              description: 'The documents are being loaded; those already shown stay.',
              tags: ['loading'],
              // Started over (its own transition, so `list` alone is the domain and the other regions stay).
              on: { 'documents.changed': { target: 'loading', reenter: true } },
              invoke: {
                id: 'loadDocuments',
                src: 'loadDocuments',
                input: ({ context }) => ({ conversationId: context.conversationId as string }),
                onDone: { target: 'loaded', actions: assign({ documents: ({ event }) => event.output }) },
                onError: [
                  // No such conversation for this person: the chat says so once ('Conversation not found'), no toast.
                  { guard: 'conversationNotFound', target: 'notFound' },
                  { target: 'failed', actions: { type: 'reportFailure', params: { text: DOCUMENTS_FETCH_FAILED } } },
                ],
              },
            },
            loaded: { description: 'The documents are shown and counted on the header button.', on: { 'documents.changed': 'loading' } },
            failed: { description: 'The documents could not be loaded: Failed to fetch documents.', on: { 'documents.retry': 'loading', 'documents.changed': 'loading' } },
            // Nothing to retry: asking again would be answered 404 again.
            notFound: { description: 'The conversation is gone or not theirs: no documents, and no toast.', on: { 'documents.changed': 'loading' } },
          },
        },
        modal: {
          description: 'The Attached Documents modal.',
          initial: 'closed',
          states: {
            closed: {
              description: 'The Attached Documents modal is closed.',
              on: { 'documents.open': { target: 'open', actions: raise({ type: 'documents.changed' }) } },
            },
            open: {
              description: 'The Attached Documents modal lists the documents with their status.',
              initial: 'browsing',
              on: { 'documents.close': 'closed' },
              states: {
                browsing: {
                  description: 'The person looks through the documents and may delete one.',
                  on: {
                    'document.delete': { guard: 'isListed', target: 'confirmingDelete', actions: assign({ deletingId: ({ event }) => event.id }) },
                  },
                },
                confirmingDelete: {
                  description: 'Delete Document asks before the document is deleted.',
                  on: {
                    'delete.confirm': 'deleting',
                    'delete.cancel': { target: 'browsing', actions: assign({ deletingId: null }) },
                  },
                },
                deleting: {
                  description: 'The document is being deleted; the modal waits, busy.',
                  tags: ['deleting'],
                  // The confirmation stays until the server answered (its buttons are disabled meanwhile).
                  on: { 'documents.close': {} },
                  invoke: {
                    id: 'deleteDocument',
                    src: 'deleteDocument',
                    input: ({ context }) => ({ id: context.deletingId as string }),
                    onDone: {
                      target: 'browsing',
                      actions: [
                        assign({ documents: ({ context }) => context.documents.filter((d) => d.id !== context.deletingId) }),
                        assign({ deletingId: null }),
                        report(() => notice('success', DOCUMENT_DELETED)),
                      ],
                    },
                    onError: {
                      target: 'browsing',
                      actions: [assign({ deletingId: null }), { type: 'reportFailure', params: { text: DOCUMENT_DELETE_FAILED } }],
                    },
                  },
                },
              },
              exit: assign({ deletingId: null }),
            },
          },
        },
        download: {
          description: 'Downloading a document that was clicked.',
          initial: 'idle',
          states: {
            idle: {
              description: 'No document is downloading.',
              on: {
                'document.download': {
                  guard: 'isListed',
                  target: 'downloading',
                  actions: assign({ downloadingId: ({ event }) => event.id }),
                },
              },
            },
            downloading: {
              description: 'A clicked document is being downloaded, one at a time.',
              tags: ['downloading'],
              invoke: {
                id: 'downloadDocument',
                src: 'downloadDocument',
                input: ({ context }) => {
                  const document = context.documents.find((d) => d.id === context.downloadingId);
                  return { id: context.downloadingId as string, filename: document?.filename ?? '' };
                },
                onDone: 'idle',
                onError: { target: 'idle', actions: { type: 'reportFailure', params: { text: DOCUMENT_DOWNLOAD_FAILED } } },
              },
              exit: assign({ downloadingId: null }),
            },
          },
        },
      },
    },
  },
});

export type ConversationDocumentsMachine = typeof conversationDocumentsMachine;
