import type { SnapshotFrom } from 'xstate';
import { SEARCH_FAILED, conversationListMachine } from '../../../machines/conversation-list.machine';
import { notice } from '../../../machines/notice';
import { asSteps, coveringPaths, maximalPaths, type Step } from './paths-support';

type ListSnap = SnapshotFrom<typeof conversationListMachine>;

/** The model's search word; the browser types the worker's own word (on a page and a bit of its conversations). */
export const WORD = 'word';

/**
 * Rename and delete of one conversation: the person's clicks, the server's answers. While a rename is being saved
 * the person may already open the Delete dialog and cancel it (the rename's call held back a moment by the browser).
 */
function listEvents(s: ListSnap): Step[] {
  const confirming = s.context.confirmingDelete !== null;
  switch (s.value) {
    case 'idle':
      // Delete asks first: the dialog's Delete or Cancel only while it is open (a person cannot press them otherwise).
      return confirming
        ? [{ type: 'conversation.delete', id: 'c1' }, { type: 'conversation.cancelDelete' }]
        : [
            { type: 'conversation.rename', id: 'c1', title: 'Renamed' },
            { type: 'conversation.rename', id: 'c1', title: '   ' },
            { type: 'conversation.askDelete', id: 'c1', title: 'Rename me' },
          ];
    case 'renaming':
      return [
        ...(confirming ? [{ type: 'conversation.cancelDelete' }] : [{ type: 'conversation.askDelete', id: 'c1', title: 'Renamed' }]),
        { type: 'xstate.done.actor.renameConversation', output: { id: 'c1', title: 'Renamed', created_at: '', updated_at: '' } },
        { type: 'xstate.error.actor.renameConversation', error: new Error('500') },
      ];
    case 'deleting':
      return [{ type: 'xstate.done.actor.deleteConversation', output: undefined }, { type: 'xstate.error.actor.deleteConversation', error: new Error('500') }];
    default:
      return [];
  }
}

/**
 * What the list learns from the rest of the chat and its own pagers, in the order a person causes it: a new
 * conversation asked on the empty chat (the list read again when it is created) and its title found by the title
 * poll, Load more below the conversations, a search of the word's first letters failing (the search pager's notice
 * passed on to the screen's toast), the whole word found and Load more below its results. These are the list's own transitions (it passes each on to a pager); what
 * the pagers do with them is the pager's paths' (pager.paths-model.ts).
 */
export const CHAT_EVENTS: Step[] = [
  { type: 'list.refresh' },
  { type: 'conversation.patch', id: 'new', patch: { title: 'Named' } },
  { type: 'list.loadMore' },
  { ...notice('error', SEARCH_FAILED) },
  { type: 'search.change', text: WORD },
  { type: 'search.loadMore' },
];

const generated = maximalPaths({
  machine: conversationListMachine,
  inputs: [undefined as never],
  events: listEvents as never,
  key: (s) => JSON.stringify([s.value, (s as ListSnap).context.confirmingDelete !== null]),
  edgeKeys: true,
});

export { conversationListMachine };
/**
 * The fewest of the longest rename and delete paths that reach every state and transition they reach, and one path
 * of the chat's events (CHAT_EVENTS: self-transitions of the list, each passed on to a pager, so one path of them
 * all costs one sign-in instead of one each).
 */
export const conversationListPaths = asSteps<unknown>([
  ...coveringPaths(conversationListMachine, generated),
  { input: undefined, events: CHAT_EVENTS, values: [], description: CHAT_EVENTS.map((e) => e.type).join(' → ') } as never,
]);
