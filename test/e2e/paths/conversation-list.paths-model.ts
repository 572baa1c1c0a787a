import type { SnapshotFrom } from 'xstate';
import { conversationListMachine, PAGES_INPUT, SEARCH_INPUT } from '../../../machines/conversation-list.machine';
import { pagerMachine } from '../../../machines/pager.machine';
import { asSteps, coveringPaths, maximalPaths, type Step } from './paths-support';

type ListSnap = SnapshotFrom<typeof conversationListMachine>;
type PagerSnap = SnapshotFrom<typeof pagerMachine>;

export const DEBOUNCE = 'xstate.after.SEARCH_DEBOUNCE.pager.debouncing';
/** The model's search words; the browser types its own unique word (3+ characters) or 2 characters for the hint. */
export const SHORT = 'ab';
export const WORD = 'word';

/** Rename and delete of one conversation: the person's clicks, the server's answers. */
function listEvents(s: ListSnap): Step[] {
  switch (s.value) {
    case 'idle':
      // Delete asks first: the dialog's Delete or Cancel only while it is open (a person cannot press them otherwise).
      return s.context.confirmingDelete
        ? [{ type: 'conversation.delete', id: 'c1' }, { type: 'conversation.cancelDelete' }]
        : [
            { type: 'conversation.rename', id: 'c1', title: 'Renamed' },
            { type: 'conversation.rename', id: 'c1', title: '   ' },
            { type: 'conversation.askDelete', id: 'c1', title: 'Rename me' },
          ];
    case 'renaming':
      return [
        { type: 'xstate.done.actor.renameConversation', output: { id: 'c1', title: 'Renamed', created_at: '', updated_at: '' } },
        { type: 'xstate.error.actor.renameConversation', error: new Error('500') },
      ];
    case 'deleting':
      return [{ type: 'xstate.done.actor.deleteConversation', output: undefined }, { type: 'xstate.error.actor.deleteConversation', error: new Error('500') }];
    default:
      return [];
  }
}

/** A first page with more to load, then the last page: the person's account has more than one page of them. */
const page1 = { items: Array.from({ length: 10 }, (_, i) => ({ id: `p${i}` })), page: 1, total: 11, totalPages: 2 };
const page2 = { items: [{ id: 'p10' }], page: 2, total: 11, totalPages: 2 };

/** The two pagers as the person sees them: the list with Load more, and search (hint, results, Load more, clear). */
function pagerEvents(s: PagerSnap): Step[] {
  const c = s.context;
  const searching = c.search !== null;
  const search: Step[] = searching
    ? [
        ...(c.searchText !== SHORT ? [{ type: 'pager.search', text: SHORT }] : []),
        ...(c.searchText !== WORD ? [{ type: 'pager.search', text: WORD }] : []),
        ...(c.searchText !== '' ? [{ type: 'pager.search', text: '' }] : []),
      ]
    : [];
  const fetched = (result: typeof page1) => ({ type: 'xstate.done.actor.fetchPage', output: result });
  const failed = { type: 'xstate.error.actor.fetchPage', error: new Error('500') };
  switch (s.value) {
    case 'inactive':
    case 'hint':
      return search;
    case 'debouncing':
      return [{ type: DEBOUNCE }];
    case 'loading':
      return [fetched(page1), failed];
    case 'loadingMore':
      return [fetched(page2), failed];
    case 'idle':
      return [...(c.page < c.totalPages ? [{ type: 'pager.loadMore' }] : []), ...search];
    default:
      return [];
  }
}


export { conversationListMachine, pagerMachine };
export const conversationListPaths = asSteps<unknown>(coveringPaths(
  conversationListMachine,
  maximalPaths({
    machine: conversationListMachine,
    inputs: [undefined as never],
    events: listEvents as never,
    key: (s) => JSON.stringify([s.value, (s as ListSnap).context.confirmingDelete !== null]),
    edgeKeys: true,
    // Rename and delete failing need a stub: only where this run owns the server.
  }),
));

/** The conversations pager (`pages`) and the search-results pager (`search`), each from the spec's input. */
export const pagerPaths = asSteps<{ search?: unknown }>(coveringPaths(
  pagerMachine,
  maximalPaths({
    machine: pagerMachine,
    inputs: [PAGES_INPUT, SEARCH_INPUT],
    events: pagerEvents as never,
    key: (s) => JSON.stringify([s.value, s.context.page < s.context.totalPages, s.context.searchText, s.context.page > 0]),
    simpleKey: (s) => JSON.stringify([s.value, s.context.searchText]),
  }),
));
