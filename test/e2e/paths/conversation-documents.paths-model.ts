import type { SnapshotFrom } from 'xstate';
import { conversationDocumentsMachine } from '../../../machines/conversation-documents.machine';
import { isLocalServer } from '../helpers/accounts';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof conversationDocumentsMachine>;

/**
 * The person opens a conversation that has one document (the path's start: its list loads), opens Attached
 * Documents, downloads, deletes (or cancels), closes; the server answers (or, with a stub, fails). Switching
 * conversations and `documents.changed` (a finished upload or reply) belong to other screens' tests
 * (attached-documents.spec.ts), so they are not generated here.
 */
function eventsFor(s: Snap): Step[] {
  if (s.matches('none')) return [];
  const listed = s.context.documents.length > 0;
  const loaded = s.matches({ conversation: { list: 'loaded' } });
  const modal = valueName((s.value as { conversation: { modal: unknown } }).conversation.modal);
  if (s.matches({ conversation: { list: 'loading' } })) {
    // The list answers before the person acts (one thing at a time in a browser). The server holds the one
    // document: no load is generated after it was deleted (below), so every load finds it.
    return [
      { type: 'xstate.done.actor.loadDocuments', output: [{ id: 'd1', filename: 'note.txt' }], actorId: 'loadDocuments' },
      { type: 'xstate.error.actor.loadDocuments', error: new Error('500'), actorId: 'loadDocuments' },
    ];
  }
  if (s.matches({ conversation: { download: 'downloading' } })) {
    // The file arrives before the person does anything else.
    return [
      { type: 'xstate.done.actor.downloadDocument', output: undefined, actorId: 'downloadDocument' },
      { type: 'xstate.error.actor.downloadDocument', error: new Error('500'), actorId: 'downloadDocument' },
    ];
  }
  // Deleted (the server's list is empty from now on): closing is all that is left to try.
  if (loaded && !listed) return modal === 'open.browsing' ? [{ type: 'documents.close' }] : [];
  switch (modal) {
    case 'closed':
      return [{ type: 'documents.open' }];
    case 'open.browsing': {
      const events: Step[] = [{ type: 'documents.close' }];
      if (!loaded) events.push({ type: 'documents.retry' });
      // Deleting from a list that failed to reload would leave the model unsure what the server holds.
      if (listed && loaded) events.push({ type: 'document.delete', id: 'd1' });
      if (listed && s.matches({ conversation: { download: 'idle' } })) events.push({ type: 'document.download', id: 'd1' });
      return events;
    }
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

/** Faults forced with stubs, so generated only locally: the list, the delete and the download failing. */
const FAULTS = new Set(['xstate.error.actor.loadDocuments', 'xstate.error.actor.deleteDocument', 'xstate.error.actor.downloadDocument']);

export { conversationDocumentsMachine };
export const conversationDocumentsPaths = asSteps<{ conversationId: string }>(
  coveringPaths(
    conversationDocumentsMachine,
    maximalPaths({
      machine: conversationDocumentsMachine,
      inputs: [{ conversationId: 'c1' }],
      events: eventsFor as never,
      key: (s) => JSON.stringify([s.value, s.context.documents.length]),
      edgeKeys: true,
      filterEvents: (_s, e) => isLocalServer || !FAULTS.has(e.type),
    }),
  ),
);
