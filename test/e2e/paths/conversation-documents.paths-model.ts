import type { SnapshotFrom } from 'xstate';
import { conversationDocumentsMachine } from '../../../machines/conversation-documents.machine';
import { DOCUMENTS_FETCH_FAILED } from '../../../contract/documents-constants';
import { notice } from '../../../machines/notice';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';
import type { LeftOut } from '../../model/support/model-paths';

type Snap = SnapshotFrom<typeof conversationDocumentsMachine>;
type Path = ReturnType<typeof maximalPaths<typeof conversationDocumentsMachine>>[number];

/** The list's failed read, as its toast reaches the machine (the pager's `notice.show`, passed on). */
export const LIST_FAILED: Step = { ...notice('error', DOCUMENTS_FETCH_FAILED) };

/**
 * The person opens a conversation that has one document (the path's start: its list, the pager, reads it), opens
 * Attached Documents, downloads, deletes (or cancels), closes; the server answers (or, with a stub, fails). The
 * list is the machine's child: its failed read is the `notice.show` it passes on. With the modal closed they attach
 * a file in the input box (`documents.changed` once its upload is over: the header counts it), or start a new chat
 * (`conversation.open` with none) and press its documents button there ('No conversation selected').
 *
 * Not generated, because the view never sends it: `documents.close` while a delete is in flight (the confirmation
 * sits on top of the modal and keeps Escape, outside clicks and its buttons while it waits). Switching to another
 * conversation belongs to attached-documents.spec.ts.
 */
function eventsFor(s: Snap): Step[] {
  if (s.matches('none')) return [{ type: 'documents.open' }];
  const modal = valueName((s.value as { conversation: { modal: unknown } }).conversation.modal);
  if (s.matches({ conversation: { download: 'downloading' } })) {
    // The file arrives before the person does anything else.
    return [
      { type: 'xstate.done.actor.downloadDocument', output: undefined, actorId: 'downloadDocument' },
      { type: 'xstate.error.actor.downloadDocument', error: new Error('500'), actorId: 'downloadDocument' },
    ];
  }
  switch (modal) {
    case 'closed':
      return [{ type: 'documents.open' }, LIST_FAILED, { type: 'documents.changed' }, { type: 'conversation.open', conversationId: null }];
    case 'open.browsing':
      return [
        { type: 'documents.close' },
        LIST_FAILED,
        { type: 'documents.retry' },
        { type: 'document.delete', id: 'd1' },
        { type: 'document.download', id: 'd1', filename: 'note.txt' },
      ];
    case 'open.confirmingDelete':
      return [{ type: 'delete.confirm' }, { type: 'delete.cancel' }];
    case 'open.deleting':
      return [
        { type: 'xstate.done.actor.deleteDocument', output: undefined, actorId: 'deleteDocument' },
        { type: 'xstate.error.actor.deleteDocument', error: new Error('500'), actorId: 'deleteDocument' },
      ];
    default:
      return [];
  }
}

/**
 * The part of a generated path a browser can play, which the machine's state alone does not say (the list is its
 * child): a read fails (`notice.show`) only as the page opens or as Attached Documents opens or retries; 'Try
 * again' shows only after such a failure (a retry right after an opening gets that opening's read failed first: a
 * self-transition, so the machine's path is the same); the document can be clicked only once a read has listed it
 * (a failed first read lists nothing until the next one); once it is deleted (the server's list is empty from then
 * on), closing is all that is left to try.
 */
function playable(path: Path): Path {
  const kept: Step[] = [];
  let listed = true;
  let deleted = false;
  const events = path.events as unknown as Step[];
  for (const [i, event] of events.entries()) {
    const before = kept.at(-1)?.type;
    const fails = events[i + 1]?.type === 'notice.show';
    if (deleted && (event.type !== 'documents.close' || before === 'documents.close')) break;
    if (event.type === 'notice.show' && !(kept.length === 0 || before === 'documents.open' || before === 'documents.retry')) break;
    if (event.type === 'documents.retry' && before !== 'notice.show') {
      if (before !== 'documents.open') break;
      kept.push(LIST_FAILED);
    }
    if ((event.type === 'document.delete' || event.type === 'document.download') && !listed) break;
    if (event.type === 'notice.show' && kept.length === 0) listed = false;
    if ((event.type === 'documents.open' || event.type === 'documents.retry') && !fails) listed = true;
    if (event.type === 'xstate.done.actor.deleteDocument') deleted = true;
    kept.push(event);
  }
  // `values` (the model test's replay) is not read by the browser runner; coverage is replayed from the events.
  return { ...path, events: kept as never, values: [], description: kept.map((e) => e.type).join(' → ') };
}


const generated = maximalPaths({
  machine: conversationDocumentsMachine,
  inputs: [{ conversationId: 'c1' }],
  events: eventsFor as never,
  key: (s) => JSON.stringify(s.value),
  edgeKeys: true,
}).map(playable);

/**
 * The generator ends a path at a self-transition (`documents.changed` keeps the state), so the attached file and
 * the new chat come as two paths that start in the same state: one path plays both (one sign-in and set-up less).
 */
const changed = generated.find((p) => p.events.length === 1 && p.events[0]!.type === 'documents.changed');
const newChat = generated.find((p) => p.events[0]?.type === 'conversation.open');
const joined: Path[] =
  changed && newChat
    ? [{ ...newChat, events: [...changed.events, ...newChat.events], description: [...changed.events, ...newChat.events].map((e) => e.type).join(' → ') }]
    : [];

export { conversationDocumentsMachine };
export const conversationDocumentsPaths = asSteps<{ conversationId: string }>(coveringPaths(conversationDocumentsMachine, [...joined, ...generated]));

/** What the view never sends (test/e2e/paths/coverage.ts counts the rest). */
export const conversationDocumentsUnforceable: LeftOut[] = [
  {
    why: 'closing while a delete is in flight: the confirmation sits on the modal and keeps Escape, outside clicks and its buttons while it waits',
    transitions: ['conversationDocuments.conversation.modal.open.deleting --documents.close#0--> (self)'],
  },
];
