import type { SnapshotFrom } from 'xstate';
import { PAGES_INPUT, SEARCH_INPUT } from '../../../machines/conversation-list.machine';
import { departmentListInput } from '../../../machines/departments-admin.machine';
import { oauthConfigsListInput } from '../../../machines/oauth-configs.machine';
import { pagerMachine, type PageResult, type PagerInput, type PagerItem } from '../../../machines/pager.machine';
import { defaultFilters, reportListInput } from '../../../machines/usage-reports.machine';
import { userListInput } from '../../../machines/users-admin.machine';
import { asSteps, coveringPaths, maximalPaths, type Step } from './paths-support';
import type { LeftOut } from '../../model/support/model-paths';

type Snap = SnapshotFrom<typeof pagerMachine>;

export const DEBOUNCE = 'xstate.after.SEARCH_DEBOUNCE.pager.debouncing';
/** The model's search words; the browser types its own unique word (3+ characters) or 2 characters for the hint. */
export const SHORT = 'ab';
export const WORD = 'word';

/**
 * The screens whose lists are this one pager machine, each with the input it gives it: the chat sidebar's
 * conversations and search results, the users table (/users), the departments table (/departments), the Reports
 * tab's results (/home) and a client's OAuth Configurations (/clients).
 */
export type Screen = 'conversations' | 'search' | 'users' | 'departments' | 'reports' | 'oauth';
/** The Reports tab's results, as applied with the tab's first filters (by department, this year). */
const REPORTS_INPUT = reportListInput({ reportType: 'department', ...defaultFilters(2026) });
const SCREENS: Array<[Screen, PagerInput]> = [
  ['conversations', PAGES_INPUT],
  ['search', SEARCH_INPUT],
  ['users', userListInput],
  ['departments', departmentListInput],
  ['reports', REPORTS_INPUT],
  ['oauth', oauthConfigsListInput],
];
export const screenOf = (input: unknown): Screen => SCREENS.find(([, i]) => i === input)![0];

const ids = (prefix: string, from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ id: `${prefix}${from + i}` }));
const result = (items: PagerItem[], page: number, total: number, pageSize: number): PageResult => ({ items, page, total, totalPages: Math.ceil(total / pageSize) });
const fetched = (output: PageResult): Step => ({ type: 'xstate.done.actor.fetchPage', output });
const failed: Step = { type: 'xstate.error.actor.fetchPage', error: Object.assign(new Error('HTTP 500'), { status: 500 }) };
/** The OAuth list refused as a server without its secret key refuses it: quiet, the modal says it in its own words. */
const refused: Step = { type: 'xstate.error.actor.fetchPage', error: Object.assign(new Error('HTTP 503'), { status: 503 }) };
/** Whether the list shows the item, and whether it shows a title for it (the new conversation once named). */
const has = (s: Snap, id: string) => s.context.items.some((i) => i.id === id);
const titled = (s: Snap, id: string) => Boolean((s.context.items.find((i) => i.id === id) as { title?: string } | undefined)?.title);

/**
 * The sidebar's conversations: a page and a bit of them (c0…c10; c1 is the test's own), Load more, and what the
 * chat does to them: c1 renamed (shown at once, then kept or put back) or deleted, a new conversation asked on the
 * empty chat (the list read again without a spinner, the new one on top) and its title found by the title poll.
 */
function conversationEvents(s: Snap): Step[] {
  const c = s.context;
  switch (s.value) {
    case 'loading':
      return [fetched(result(ids('c', 0, 10), 1, 11, 10)), failed];
    case 'loadingMore':
      return [fetched(result(ids('c', 10, 11), 2, 11, 10)), failed];
    case 'refetching':
      // Every page shown so far in one call, the new conversation (still untitled) on top.
      return [fetched(result([{ id: 'new' }, ...c.items].slice(0, Math.max(1, c.page) * 10), 1, c.total + 1, 10)), failed];
    case 'idle':
      // A rename being saved ends in its answer before anything else (the sidebar's one operation at a time).
      if (c.pending.c1) return [{ type: 'item.commit', id: 'c1' }, { type: 'item.revert', id: 'c1' }];
      return [
        ...(c.page < c.totalPages ? [{ type: 'pager.loadMore' }] : []),
        ...(has(s, 'new') ? (titled(s, 'new') ? [] : [{ type: 'item.upsert', item: { id: 'new', title: 'Named' }, insert: false }]) : [{ type: 'pager.refetch' }]),
        ...(has(s, 'c1') ? [{ type: 'item.patch', id: 'c1', patch: { title: 'Renamed' } }, { type: 'item.remove', id: 'c1' }] : []),
      ];
    default:
      return [];
  }
}

/** The sidebar's search: the 3-character hint, its results (a page and a bit), Load more, the same words again, clear. */
function searchEvents(s: Snap): Step[] {
  const c = s.context;
  const search: Step[] = [
    ...(c.searchText !== SHORT ? [{ type: 'pager.search', text: SHORT }] : []),
    ...(c.searchText !== WORD ? [{ type: 'pager.search', text: WORD }] : []),
    ...(c.searchText !== '' ? [{ type: 'pager.search', text: '' }] : []),
  ];
  switch (s.value) {
    case 'inactive':
    case 'hint':
      return search;
    case 'debouncing':
      return [{ type: DEBOUNCE }];
    case 'loading':
      return [fetched(result(ids('c', 0, 10), 1, 11, 10)), failed];
    case 'loadingMore':
      return [fetched(result(ids('c', 10, 11), 2, 11, 10)), failed];
    case 'idle':
      return [
        ...(c.page < c.totalPages ? [{ type: 'pager.loadMore' }] : []),
        // The same words with a space after them: nothing to search again.
        ...(c.query === WORD && c.page > 0 ? [{ type: 'pager.search', text: `${WORD} ` }] : []),
        ...search,
      ];
    default:
      return [];
  }
}

/** The users table, read as it is: the Active chip, its read failing (a 500), Try again. */
function userEvents(s: Snap): Step[] {
  const c = s.context;
  const filtered = c.filters.status === 'active';
  switch (s.value) {
    case 'loading':
      return [fetched(result(ids('u', 0, 1), 1, 1, 10)), ...(filtered && c.error === null ? [failed] : [])];
    case 'idle':
      return [...(filtered ? [] : [{ type: 'pager.filter', filters: { status: 'active' } }]), ...(c.error ? [{ type: 'pager.load' }] : [])];
    default:
      return [];
  }
}

/**
 * The departments table: the test's word typed (eleven departments of its own: two pages), page 2, its one department
 * deleted there (the page read again is gone: the last page there still is), the search cleared (all of them again).
 */
function departmentEvents(s: Snap): Step[] {
  const c = s.context;
  const mine = c.query === WORD;
  switch (s.value) {
    case 'debouncing':
      return [{ type: DEBOUNCE }];
    case 'loading': {
      if (!mine) return [fetched(result(ids('x', 0, 3), 1, 3, 10))];
      // Ten left once page 2's one was deleted (the page read again after the delete was gone).
      const total = c.page === 2 && c.targetPage === 1 ? 10 : 11;
      return [fetched(c.targetPage === 1 ? result(ids('d', 0, 10), 1, total, 10) : result(ids('d', 10, 11), 2, total, 10))];
    }
    case 'refetching':
      return [fetched({ items: [], page: 2, total: 10, totalPages: 1 })];
    case 'idle':
      return [
        ...(mine ? [] : [{ type: 'pager.search', text: WORD }]),
        ...(c.query !== '' ? [{ type: 'pager.search', text: '' }] : []),
        ...(mine && c.page === 1 && c.totalPages === 2 ? [{ type: 'pager.goTo', page: 2 }] : []),
        ...(mine && c.page === 2 && c.items.length === 1 ? [{ type: 'pager.refetch' }] : []),
      ];
    default:
      return [];
  }
}

/** The Reports tab's results: sorted by Unit, 20 rows a page, Apply Filters again. */
function reportEvents(s: Snap): Step[] {
  const c = s.context;
  switch (s.value) {
    case 'loading':
      return [fetched(result(ids('r', 0, 1), 1, 1, c.pageSize))];
    case 'idle':
      return [
        ...(c.sort?.column !== 'unit_name' ? [{ type: 'pager.sort', column: 'unit_name' }] : []),
        ...(c.pageSize !== 20 ? [{ type: 'pager.pageSize', pageSize: 20 }] : []),
        { type: 'pager.filter', filters: c.filters },
      ];
    default:
      return [];
  }
}

/** A client's OAuth configurations: none yet, one added (the list read again), each read refused (503) or not. */
function oauthEvents(s: Snap): Step[] {
  const c = s.context;
  switch (s.value) {
    case 'loading':
      return [fetched({ items: [], page: 1, total: 0, totalPages: 0 }), refused];
    case 'refetching':
      return [refused];
    case 'idle':
      // Add Configuration is disabled while the list is refused; one is added (the list read again) at most once.
      return c.refused === null && c.items.length === 0 ? [{ type: 'pager.refetch' }] : [];
    default:
      return [];
  }
}

const EVENTS: Record<Screen, (s: Snap) => Step[]> = {
  conversations: conversationEvents,
  search: searchEvents,
  users: userEvents,
  departments: departmentEvents,
  reports: reportEvents,
  oauth: oauthEvents,
};

/** The screen of a snapshot: each input has its own failure sentence. */
const eventsFor = (s: Snap): Step[] => {
  const screen = SCREENS.find(([, input]) => input.messages.load === s.context.messages.load)![0];
  return EVENTS[screen](s);
};

const generated = maximalPaths({
  machine: pagerMachine,
  inputs: SCREENS.map(([, input]) => input),
  events: eventsFor as never,
  // What the guards read (more pages, the search, items there and pending, a refusal) and what the events offered read.
  key: (s) =>
    JSON.stringify([
      s.value,
      s.context.messages.load,
      s.context.page,
      s.context.totalPages,
      s.context.targetPage,
      s.context.searchText,
      s.context.query,
      s.context.items.length,
      has(s, 'c1'),
      Boolean(s.context.pending.c1),
      has(s, 'new'),
      titled(s, 'new'),
      s.context.error !== null,
      s.context.refused,
      s.context.filters.status ?? null,
      s.context.sort?.column ?? null,
      s.context.pageSize,
    ]),
  simpleKey: (s) => JSON.stringify([s.value, s.context.messages.load, s.context.searchText, s.context.page, has(s, 'new'), s.context.refused]),
  edgeKeys: true,
});

export { pagerMachine };
/**
 * Every screen's paths in one set, so that the pager is counted once over all of them (test/e2e/paths/coverage.ts):
 * the fewest of the longest that reach every state and transition the model reaches, whichever screen reaches it.
 */
export const pagerPaths = asSteps<PagerInput>(coveringPaths(pagerMachine, generated));

/** What no screen can cause (test/e2e/paths/coverage.ts counts the rest); the spec's header says the same. */
export const pagerUnforceable: LeftOut[] = [
  { why: 'a list that waits to be told to load (autoLoad false): no screen gives it', transitions: ['pager.starting --always#2--> pager.idle'] },
  { why: 'Load more in a list shown a page at a time: no such screen has Load more', transitions: ['pager.loadingMore --xstate.done.actor.fetchPage#1--> pager.idle'] },
  {
    why: 'a quiet refusal of a next page: only the attached documents refuse quietly with Load more, 100 a page',
    transitions: ['pager.loadingMore --xstate.error.actor.fetchPage#2--> pager.idle'],
  },
];
