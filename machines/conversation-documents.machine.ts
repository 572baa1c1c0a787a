import { assertEvent, assign, sendTo, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import { DOCUMENT_DELETE_FAILED, DOCUMENT_DELETED, DOCUMENTS_FETCH_FAILED } from '../contract/documents-constants';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { MAX_PAGE_SIZE, pagerMachine, type PagerInput } from './pager.machine';
import { report, type ReportsTo } from './report';

/**
 * The documents of the open conversation (spec chat-and-session.md section 2 "Chat screen": the 'N Document(s)'
 * header button, the Attached Documents modal, the confirmation Delete Document, "documents download when
 * clicked"; section 5 'No conversation selected'; section 8 Documents). The chat-screen machine invokes it (id
 * `documents`) for its whole life and tells it which conversation is open (`conversation.open`); another
 * conversation starts it afresh (its list, the modal and a download in flight end), the same one changes nothing.
 *
 * The list is the shared pager (`list`, invoked in `conversation`, so each conversation gets a new one; the header
 * count and the modal read its items and total): GET /documents/?conversation_id=, one page with every document.
 * 'Failed to fetch documents' is its toast, passed on (`documents.retry` asks again). A 404 (the conversation is
 * not this person's) is a quiet refusal (`refused`): no documents and no toast, since the chat says 'Conversation
 * not found' once. `documents.changed` (an upload finished, an exchange completed: a generated image is a new
 * document) reads it again, and a read in flight starts over, so the answer includes the change; the documents
 * already shown stay meanwhile (the header count does not flicker).
 *
 * - `none`: no conversation (the new-chat screen): no list; `documents.open` says 'No conversation selected'.
 * - `conversation` (parallel):
 *   - `modal`: Attached Documents, `closed` | `open` (opening reads the list again: statuses move on while
 *     documents are processed). In `open`: `document.delete` asks 'Delete Document' (`confirmingDelete`),
 *     `delete.confirm` deletes (`deleting`, tag `deleting`: `deleteDocument`) -> 'Document deleted successfully'
 *     and it leaves the list (`item.remove`), or 'Failed to delete document' and it stays; `delete.cancel` goes back.
 *   - `download`: `document.download` (a click on a document, with its filename) -> `downloading` (tag
 *     `downloading`: `downloadDocument`, the authenticated download; the actor hands the file to the browser); one
 *     at a time.
 */

export const NO_CONVERSATION_SELECTED = 'No conversation selected';
/** Not in the spec's catalogue (which names no download failure); worded like its other documents texts. */
export const DOCUMENT_DOWNLOAD_FAILED = 'Failed to download document';

/** The header button's label, the spec's 'N Document(s)' read as English: '1 Document', '0 Documents', '3 Documents'. */
export const documentsLabel = (count: number) => `${count} ${count === 1 ? 'Document' : 'Documents'}`;

/**
 * The documents list of a conversation: the server sends every document at once (it does not page them), so the
 * page size only has to be the API's largest; a 404 is said by the chat, not here.
 */
export const documentListInput = (conversationId: string): PagerInput => ({
  pageSize: MAX_PAGE_SIZE,
  mode: 'append',
  filters: { conversationId },
  messages: { load: DOCUMENTS_FETCH_FAILED },
  quietStatuses: [404],
});

export interface ConversationDocumentsInput extends ReportsTo {
  conversationId: string | null;
}

export interface DocumentRef {
  id: string;
  filename: string;
}

export interface ConversationDocumentsContext extends ReportsTo {
  conversationId: string | null;
  /** The document the delete confirmation (and the delete) is about. */
  deletingId: string | null;
  /** The document being downloaded, with the name to save it under. */
  downloading: DocumentRef | null;
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
  /** A listed document was clicked (the view sends its name, which the download saves it under). */
  | ({ type: 'document.download' } & DocumentRef)
  /** From the list: its failed load's toast, passed on. */
  | Notice;

type ActorOutcome =
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
    tags: {} as 'deleting' | 'downloading',
    children: {} as { list: 'list'; deleteDocument: 'deleteDocument'; downloadDocument: 'downloadDocument' },
  },
  actors: {
    list: pagerMachine,
    deleteDocument: notProvided<unknown, { id: string }>('deleteDocument'),
    downloadDocument: notProvided<unknown, DocumentRef>('downloadDocument'),
  },
  guards: {
    isAnotherConversation: ({ context, event }) => {
      assertEvent(event, 'conversation.open');
      return event.conversationId !== context.conversationId;
    },
    hasConversation: ({ context }) => context.conversationId !== null,
  },
  actions: {
    openConversation: assign(({ event }) => {
      assertEvent(event, 'conversation.open');
      return { conversationId: event.conversationId, deletingId: null, downloading: null };
    }),
    /** Read again; a read in flight starts over (the pager keeps what it shows while it reads). */
    readList: sendTo('list', { type: 'pager.load' }),
    passNotice: report(({ event }: { event: Notice }) => event),
    reportFailure: report((_: unknown, params: { text: string }) => notice('error', params.text)),
  },
}).createMachine({
  id: 'conversationDocuments',
  context: ({ input }) => ({ conversationId: input.conversationId, deletingId: null, downloading: null, parent: input.parent }),
  initial: 'pick',
  on: {
    // Leaving through `pick` and entering `conversation` again restarts everything in it: a new list for the new
    // conversation, the modal closed.
    'conversation.open': { guard: 'isAnotherConversation', target: '.pick', actions: 'openConversation' },
  },
  states: {
    // Where the input or the opened conversation leads.
    pick: { description: 'A conversation opens: its documents, or none for a new chat, are chosen at once (never seen).', always: [{ guard: 'hasConversation', target: 'conversation' }, { target: 'none' }] },
    none: {
      description: 'A new chat: there is no documents list, and opening it says No conversation selected.',
      on: { 'documents.open': { actions: { type: 'reportFailure', params: { text: NO_CONVERSATION_SELECTED } } } },
    },
    conversation: {
      description: 'The documents list of the open conversation (the pager), their modal and a download.',
      type: 'parallel',
      invoke: { id: 'list', src: 'list', input: ({ context, self }) => ({ ...documentListInput(context.conversationId as string), parent: self }) },
      on: {
        'documents.changed': { actions: 'readList' },
        'documents.retry': { actions: 'readList' },
        'notice.show': { actions: 'passNotice' },
      },
      states: {
        modal: {
          description: 'The Attached Documents modal.',
          initial: 'closed',
          states: {
            closed: {
              description: 'The Attached Documents modal is closed.',
              on: { 'documents.open': { target: 'open', actions: 'readList' } },
            },
            open: {
              description: 'The Attached Documents modal lists the documents with their status.',
              initial: 'browsing',
              on: { 'documents.close': 'closed' },
              states: {
                browsing: {
                  description: 'The person looks through the documents and may delete one.',
                  on: { 'document.delete': { target: 'confirmingDelete', actions: assign({ deletingId: ({ event }) => event.id }) } },
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
                        sendTo('list', ({ context }) => ({ type: 'item.remove' as const, id: context.deletingId as string })),
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
                  target: 'downloading',
                  actions: assign({ downloading: ({ event }) => ({ id: event.id, filename: event.filename }) }),
                },
              },
            },
            downloading: {
              description: 'A clicked document is being downloaded, one at a time.',
              tags: ['downloading'],
              invoke: {
                id: 'downloadDocument',
                src: 'downloadDocument',
                input: ({ context }) => context.downloading as DocumentRef,
                onDone: 'idle',
                onError: { target: 'idle', actions: { type: 'reportFailure', params: { text: DOCUMENT_DOWNLOAD_FAILED } } },
              },
              exit: assign({ downloading: null }),
            },
          },
        },
      },
    },
  },
});

export type ConversationDocumentsMachine = typeof conversationDocumentsMachine;
