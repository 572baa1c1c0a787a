import { assertEvent, assign, sendTo, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import { answerStatusOf } from './answer-status';
import { serverDetailOf } from './load-failure';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { pagerMachine, type PagerFilters, type PagerInput, type PagerItem } from './pager.machine';
import { report, type ReportsTo } from './report';

/**
 * One list of records with the dialogs that change them, shared by the admin screens (ARCHITECTURE.md "Screens
 * made of machines": repeated behaviour is one machine used many times). A screen machine is this machine with
 * its input (the list, the dialog's rules, how a failed delete ends) and its actors (`list`, `save`, `remove`);
 * the screen's own words travel in the events that open a dialog (`record.edit`, `record.delete` carry the
 * success and failure sentences of that change), so the machine holds no screen's text.
 *
 * The list is the shared pager (`list`, invoked for the machine's whole life): `list.search`, `list.goTo`,
 * `list.filter` and `list.retry` go to it, and its failure toasts are passed on.
 *
 * browse -> edit -> saving -> back: `record.edit` opens the dialog (`editing`) with a draft; `record.change`
 * changes fields (clearing their sentences); `form.submit` checks the rules first (a broken one stays in
 * `editing` with its sentence, nothing is sent), then `saving` (tag `busy`, invokes `save`) -> `browsing` with the
 * plan's success toast and the list read again (now, `refetchLater`, or the server's copy put in place), or back
 * to `editing` with the server's sentence, else the plan's, keeping what was typed. `form.cancel` closes it.
 *
 * confirm -> deleting: `record.delete` asks first (`confirming`); `delete.confirm` -> `deleting` (tag `busy`,
 * invokes `remove`) -> `browsing` with the plan's toast and the list read again; a failure says so and closes the
 * question, or with `delete.askAgain` keeps it open (back to `confirming`). With `delete.goneIsDone` a 404 (gone
 * already, from another tab) is the same outcome as a delete.
 */

/** A record as a dialog holds it: its fields by name. */
export type Draft = Record<string, unknown>;
/** A sentence for each field that breaks a rule. */
export type FieldErrors = Record<string, string>;

/** The words of one change, and what the list does once it is saved. */
export interface SavePlan {
  saved: string;
  failed: string;
  /** `refetch` reads the list again at once, `refetchLater` after `refetchLaterMs`, `upsert` puts the server's copy in place. */
  then: 'refetch' | 'refetchLater' | 'upsert';
}

export interface DeletePlan {
  deleted: string;
  failed: string;
}

export interface EditorRules {
  /** The dialog's rules, checked before any call (none: every draft may be saved). */
  errors?: (draft: Draft) => FieldErrors | null;
  /** The draft as `save` is asked for it (names trimmed, ...); the draft itself without one. */
  request?: (draft: Draft) => unknown;
}

export interface RecordEditorInput extends ReportsTo {
  list: PagerInput;
  rules?: EditorRules;
  delete?: {
    /** A failed delete keeps the question open (the person may confirm again, or cancel). */
    askAgain?: boolean;
    /** A 404 means someone else deleted it already: the same outcome as deleting it. */
    goneIsDone?: boolean;
    /** A failure says the server's sentence when it gave one (default); false: always the plan's. */
    serverSentence?: boolean;
  };
  /** How long `then: 'refetchLater'` waits (administration spec: 1 s after a department is created). */
  refetchLaterMs?: number;
}

export interface RecordEditorContext extends ReportsTo {
  rules: EditorRules;
  deleteRules: NonNullable<RecordEditorInput['delete']>;
  refetchLaterMs: number;
  listInput: PagerInput;
  /** The open dialog's record. */
  draft: Draft | null;
  errors: FieldErrors;
  plan: SavePlan | null;
  /** What the open confirmation (and the delete) is about. */
  target: Draft | null;
  deletePlan: DeletePlan | null;
}

export type RecordEditorEvent =
  | { type: 'list.search'; text: string }
  | { type: 'list.goTo'; page: number }
  | { type: 'list.filter'; filters: PagerFilters }
  | { type: 'list.retry' }
  | { type: 'record.edit'; draft: Draft; plan: SavePlan }
  | { type: 'record.change'; patch: Draft }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  | { type: 'record.delete'; target: Draft; plan: DeletePlan }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  /** From the list: its failure toasts, passed on. */
  | Notice
  | DoneActorEvent<unknown, 'save'>
  | ErrorActorEvent<unknown, 'save'>
  | DoneActorEvent<unknown, 'remove'>
  | ErrorActorEvent<unknown, 'remove'>;

/** The events a screen builds with its own words: open the dialog, change its fields, ask about a delete. */
export type EditRecordEvent = Extract<RecordEditorEvent, { type: 'record.edit' }>;
export type ChangeRecordEvent = Extract<RecordEditorEvent, { type: 'record.change' }>;
export type DeleteRecordEvent = Extract<RecordEditorEvent, { type: 'record.delete' }>;

/** The sentences of a draft's broken rules ({} when it may be saved). */
export const draftErrors = (rules: EditorRules, draft: Draft | null): FieldErrors => (draft && rules.errors?.(draft)) || {};

const closedDialog = { draft: null, errors: {}, plan: null };
const closedQuestion = { target: null, deletePlan: null };

export const recordEditorMachine = setup({
  types: {
    context: {} as RecordEditorContext,
    events: {} as RecordEditorEvent,
    input: {} as RecordEditorInput,
    emitted: {} as Notice,
    tags: {} as 'busy',
    children: {} as { list: 'list'; save: 'save'; remove: 'remove' },
  },
  actors: {
    list: pagerMachine,
    save: notProvided<unknown, unknown>('save'),
    remove: notProvided<unknown, Draft>('remove'),
  },
  delays: {
    REFETCH_LATER: ({ context }) => context.refetchLaterMs,
  },
  guards: {
    draftIsValid: ({ context }) => Object.keys(draftErrors(context.rules, context.draft)).length === 0,
    refetchLater: ({ context }) => context.plan?.then === 'refetchLater',
    upsert: ({ context }) => context.plan?.then === 'upsert',
    alreadyGone: ({ context, event }) => context.deleteRules.goneIsDone === true && answerStatusOf((event as { error?: unknown }).error) === 404,
    askAgain: ({ context }) => context.deleteRules.askAgain === true,
  },
  actions: {
    passNotice: report(({ event }: { event: Notice }) => event),
    reportSaved: report(({ context }: { context: RecordEditorContext }) => notice('success', context.plan!.saved)),
    reportSaveFailed: report(({ context, event }: { context: RecordEditorContext; event: { error?: unknown } }) =>
      notice('error', serverDetailOf(event.error) ?? context.plan!.failed),
    ),
    reportDeleted: report(({ context }: { context: RecordEditorContext }) => notice('success', context.deletePlan!.deleted)),
    reportDeleteFailed: report(({ context, event }: { context: RecordEditorContext; event: { error?: unknown } }) =>
      notice('error', (context.deleteRules.serverSentence === false ? null : serverDetailOf(event.error)) ?? context.deletePlan!.failed),
    ),
    showErrors: assign(({ context }) => ({ errors: draftErrors(context.rules, context.draft) })),
    refetchList: sendTo('list', { type: 'pager.refetch' }),
    refetchListLater: sendTo('list', { type: 'pager.refetch' }, { delay: 'REFETCH_LATER' }),
    /** The server's copy replaces the row (never adds one: the page shows what it read). */
    showServerCopy: sendTo('list', ({ event }) => {
      assertEvent(event, 'xstate.done.actor.save');
      return { type: 'item.upsert' as const, item: event.output as PagerItem, insert: false };
    }),
    closeDialog: assign(closedDialog),
    closeQuestion: assign(closedQuestion),
  },
}).createMachine({
  id: 'recordEditor',
  context: ({ input }) => ({
    parent: input.parent,
    rules: input.rules ?? {},
    deleteRules: input.delete ?? {},
    refetchLaterMs: input.refetchLaterMs ?? 0,
    listInput: input.list,
    ...closedDialog,
    ...closedQuestion,
  }),
  invoke: { id: 'list', src: 'list', input: ({ context, self }) => ({ ...context.listInput, parent: self }) },
  initial: 'browsing',
  on: {
    'list.search': { actions: sendTo('list', ({ event }) => ({ type: 'pager.search' as const, text: event.text })) },
    'list.goTo': { actions: sendTo('list', ({ event }) => ({ type: 'pager.goTo' as const, page: event.page })) },
    'list.filter': { actions: sendTo('list', ({ event }) => ({ type: 'pager.filter' as const, filters: event.filters })) },
    'list.retry': { actions: sendTo('list', { type: 'pager.load' }) },
    'notice.show': { actions: 'passNotice' },
  },
  states: {
    browsing: {
      description: 'The list is shown; a row may be opened in the dialog, or its delete asked about.',
      on: {
        'record.edit': { target: 'editing', actions: assign(({ event }) => ({ draft: event.draft, plan: event.plan, errors: {} })) },
        'record.delete': { target: 'confirming', actions: assign(({ event }) => ({ target: event.target, deletePlan: event.plan })) },
      },
    },
    editing: {
      description: 'The dialog is open with the draft; its rules are checked on submit, before any call.',
      on: {
        'record.change': {
          // Typing in a field clears its sentence; the next submit checks again.
          actions: assign(({ context, event }) => ({
            draft: { ...context.draft, ...event.patch },
            errors: Object.fromEntries(Object.entries(context.errors).filter(([field]) => !(field in event.patch))),
          })),
        },
        'form.submit': [{ guard: 'draftIsValid', target: 'saving' }, { actions: 'showErrors' }],
        'form.cancel': { target: 'browsing', actions: 'closeDialog' },
      },
    },
    saving: {
      description: 'The draft is being saved; the dialog stays open, and keeps what was typed if the save fails.',
      tags: ['busy'],
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }: { context: RecordEditorContext }) => (context.rules.request ? context.rules.request(context.draft!) : context.draft),
        onDone: [
          { guard: 'refetchLater', target: 'browsing', actions: ['reportSaved', 'refetchListLater', 'closeDialog'] },
          { guard: 'upsert', target: 'browsing', actions: ['showServerCopy', 'reportSaved', 'closeDialog'] },
          { target: 'browsing', actions: ['reportSaved', 'refetchList', 'closeDialog'] },
        ],
        onError: { target: 'editing', actions: 'reportSaveFailed' },
      },
    },
    confirming: {
      description: 'Asks before deleting: nothing is sent until the person confirms.',
      on: {
        'delete.confirm': 'deleting',
        'delete.cancel': { target: 'browsing', actions: 'closeQuestion' },
      },
    },
    deleting: {
      description: 'The record is being deleted; the question stays on screen until the server answers.',
      tags: ['busy'],
      invoke: {
        id: 'remove',
        src: 'remove',
        input: ({ context }) => context.target!,
        onDone: { target: 'browsing', actions: ['reportDeleted', 'refetchList', 'closeQuestion'] },
        onError: [
          { guard: 'alreadyGone', target: 'browsing', actions: ['reportDeleted', 'refetchList', 'closeQuestion'] },
          { guard: 'askAgain', target: 'confirming', actions: 'reportDeleteFailed' },
          { target: 'browsing', actions: ['reportDeleteFailed', 'closeQuestion'] },
        ],
      },
    },
  },
});

export type RecordEditorMachine = typeof recordEditorMachine;
