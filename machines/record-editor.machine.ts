import { and, assertEvent, assign, sendTo, setup, type DoneActorEvent, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import { answerStatusOf } from './answer-status';
import { serverDetailOf } from './load-failure';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { pagerMachine, type PagerFilters, type PagerInput, type PagerItem } from './pager.machine';
import { report, type ReportsTo } from './report';

/**
 * One list of records with the dialogs that change them, shared by the admin screens (ARCHITECTURE.md "Screens
 * made of machines": repeated behaviour is one machine used many times). A screen machine is this machine with
 * its input (the list, the dialog's rules, how a failed act ends) and its actors (`list`, `save`, `act`); the
 * screen's own words travel in the events that open a dialog or start an act (`record.edit`, `record.act` carry
 * the success and failure sentences of that change), and the screen's own logic in its `rules`, so the machine
 * holds no screen's text or logic.
 *
 * The list is the shared pager (`list`, invoked for the machine's whole life): `list.search`, `list.goTo`,
 * `list.filter` and `list.retry` go to it, and its failure toasts are passed on.
 *
 * browse -> edit -> saving -> back: `record.edit` opens the dialog (`editing`) with a draft; `record.change`
 * changes fields (through `rules.change`, the screen's normaliser, when it has one; clearing the changed fields'
 * sentences); `form.submit` is possible only when `rules.ready` says so (so `can()` disables the button), then
 * checks `rules.errors` (a broken one stays in `editing` with its sentence, nothing is sent), then `saving` (tag
 * `busy`, invokes `save`) -> `browsing` with the plan's success toast and the list read again (now,
 * `refetchLater`, or the server's copy put in place), or back to `editing` with the server's sentence, else the
 * plan's, keeping what was typed. `form.cancel` closes it.
 *
 * act -> (confirm) -> acting: `record.act` changes one record other than through the dialog (a delete, a status
 * switched, a mail sent again), when `rules.mayAct` allows it for that target (the view asks `can()`). With
 * `confirm` it asks first (`confirming`: `act.confirm` goes on, `act.cancel` sends nothing), otherwise it runs at
 * once. `acting` (tag `busy`, invokes `act` with the target; the screen's actor tells its acts apart by the
 * target) -> `browsing` with the plan's toast and the list read again, the server's copy put in place, or the list
 * kept; a failure says so (the server's sentence, else the plan's; `act.serverSentence: false`: always the plan's)
 * and closes the question, or with `act.askAgain` keeps a confirmed one open (back to `confirming`). With
 * `act.goneIsDone` a 404 (gone already, from another tab) is the same outcome as done. `deleteRecord` builds a
 * delete: a confirmed act that reads the list again.
 */

/** A record as a dialog holds it: its fields by name. */
export type Draft = Record<string, unknown>;
/** A sentence for each field that breaks a rule. */
export type FieldErrors = Record<string, string>;
/** The key of `errors` that holds the last refused save's sentence (cleared by the next change or submit). */
export const FORM_ERROR = 'form';

/** The words of one change, and what the list does once it is saved. */
export interface SavePlan {
  saved: string;
  failed: string;
  /** `refetch` reads the list again at once, `refetchLater` after `refetchLaterMs`, `upsert` puts the server's copy in place. */
  then: 'refetch' | 'refetchLater' | 'upsert';
}

/** The words of one act, and what the list does once it is done. */
export interface ActPlan {
  done: string;
  failed: string;
  /** `refetch` reads the list again, `upsert` puts the server's copy in place, `keep` leaves it (a mail sent changes no row). */
  then: 'refetch' | 'upsert' | 'keep';
}

export interface EditorRules {
  /** The dialog's rules, checked on submit before any call (none: every draft may be saved). */
  errors?: (draft: Draft) => FieldErrors | null;
  /** Whether the draft may be submitted at all (none: always); the view's button asks `can({ type: 'form.submit' })`. */
  ready?: (draft: Draft) => boolean;
  /** The draft after a change (fields that depend on each other); none: the patch is merged in. */
  change?: (draft: Draft, patch: Draft) => Draft;
  /** The draft as `save` is asked for it (names trimmed, ...); the draft itself without one. */
  request?: (draft: Draft) => unknown;
  /** Whether this act may be started on this target (none: every one); the view asks `can()`. */
  mayAct?: (target: Draft) => boolean;
}

export interface RecordEditorInput extends ReportsTo {
  list: PagerInput;
  rules?: EditorRules;
  act?: {
    /** A failed confirmed act keeps the question open (the person may confirm again, or cancel). */
    askAgain?: boolean;
    /** A 404 means someone else deleted it already: the same outcome as done. */
    goneIsDone?: boolean;
    /** A failure says the server's sentence when it gave one (default); false: always the plan's. */
    serverSentence?: boolean;
  };
  /** How long `then: 'refetchLater'` waits (administration spec: 1 s after a department is created). */
  refetchLaterMs?: number;
}

export interface RecordEditorContext extends ReportsTo {
  rules: EditorRules;
  actRules: NonNullable<RecordEditorInput['act']>;
  refetchLaterMs: number;
  listInput: PagerInput;
  /** The open dialog's record. */
  draft: Draft | null;
  errors: FieldErrors;
  plan: SavePlan | null;
  /** What the open confirmation (and the act) is about. */
  target: Draft | null;
  actPlan: ActPlan | null;
  /** The act was confirmed first (only such a one may be asked again). */
  asked: boolean;
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
  | { type: 'record.act'; target: Draft; plan: ActPlan; confirm: boolean }
  | { type: 'act.confirm' }
  | { type: 'act.cancel' }
  /** From the list: its failure toasts, passed on. */
  | Notice
  | DoneActorEvent<unknown, 'save'>
  | ErrorActorEvent<unknown, 'save'>
  | DoneActorEvent<unknown, 'act'>
  | ErrorActorEvent<unknown, 'act'>;

/** The events a screen builds with its own words: open the dialog, change its fields, act on a record. */
export type EditRecordEvent = Extract<RecordEditorEvent, { type: 'record.edit' }>;
export type ChangeRecordEvent = Extract<RecordEditorEvent, { type: 'record.change' }>;
export type ActRecordEvent = Extract<RecordEditorEvent, { type: 'record.act' }>;

/** A delete: asked first, and the list read again once it is done. */
export const deleteRecord = (target: Draft, words: { deleted: string; failed: string }): ActRecordEvent => ({
  type: 'record.act',
  target,
  plan: { done: words.deleted, failed: words.failed, then: 'refetch' },
  confirm: true,
});

/** The screen's rule for acting on `target` (none: every one may be acted on). */
const ruleAllowsAct = (rules: EditorRules, target: Draft): boolean => rules.mayAct?.(target) ?? true;

/** The sentences of a draft's broken rules ({} when it may be saved). */
export const draftErrors = (rules: EditorRules, draft: Draft | null): FieldErrors => (draft && rules.errors?.(draft)) || {};

const closedDialog = { draft: null, errors: {}, plan: null };
const closedQuestion = { target: null, actPlan: null, asked: false };

export const recordEditorMachine = setup({
  types: {
    context: {} as RecordEditorContext,
    events: {} as RecordEditorEvent,
    input: {} as RecordEditorInput,
    emitted: {} as Notice,
    tags: {} as 'busy',
    children: {} as { list: 'list'; save: 'save'; act: 'act' },
  },
  actors: {
    list: pagerMachine,
    save: notProvided<unknown, unknown>('save'),
    act: notProvided<unknown, Draft>('act'),
  },
  delays: {
    REFETCH_LATER: ({ context }) => context.refetchLaterMs,
  },
  guards: {
    draftIsReady: ({ context }) => context.draft !== null && (context.rules.ready?.(context.draft) ?? true),
    draftIsValid: ({ context }) => Object.keys(draftErrors(context.rules, context.draft)).length === 0,
    mayAct: ({ context, event }) => {
      assertEvent(event, 'record.act');
      return ruleAllowsAct(context.rules, event.target);
    },
    asksFirst: ({ event }) => {
      assertEvent(event, 'record.act');
      return event.confirm;
    },
    refetchLater: ({ context }) => context.plan?.then === 'refetchLater',
    upsert: ({ context }) => context.plan?.then === 'upsert',
    actUpserts: ({ context }) => context.actPlan?.then === 'upsert',
    actKeepsList: ({ context }) => context.actPlan?.then === 'keep',
    alreadyGone: ({ context, event }) => context.actRules.goneIsDone === true && answerStatusOf((event as { error?: unknown }).error) === 404,
    askAgain: ({ context }) => context.actRules.askAgain === true && context.asked,
  },
  actions: {
    passNotice: report(({ event }: { event: Notice }) => event),
    reportSaved: report(({ context }: { context: RecordEditorContext }) => notice('success', context.plan!.saved)),
    reportSaveFailed: report(({ context, event }: { context: RecordEditorContext; event: { error?: unknown } }) =>
      notice('error', serverDetailOf(event.error) ?? context.plan!.failed),
    ),
    reportDone: report(({ context }: { context: RecordEditorContext }) => notice('success', context.actPlan!.done)),
    reportActFailed: report(({ context, event }: { context: RecordEditorContext; event: { error?: unknown } }) =>
      notice('error', (context.actRules.serverSentence === false ? null : serverDetailOf(event.error)) ?? context.actPlan!.failed),
    ),
    showErrors: assign(({ context }) => ({ errors: draftErrors(context.rules, context.draft) })),
    /** The refusal in the dialog too (`errors.form`), for screens whose spec says it inline (Register New Client). */
    showSaveFailure: assign(({ context, event }) => {
      assertEvent(event, 'xstate.error.actor.save');
      return { errors: { ...context.errors, [FORM_ERROR]: serverDetailOf(event.error) ?? context.plan!.failed } };
    }),
    holdAct: assign(({ event }) => {
      assertEvent(event, 'record.act');
      return { target: event.target, actPlan: event.plan, asked: event.confirm };
    }),
    refetchList: sendTo('list', { type: 'pager.refetch' }),
    refetchListLater: sendTo('list', { type: 'pager.refetch' }, { delay: 'REFETCH_LATER' }),
    /** The server's copy replaces the row (never adds one: the page shows what it read). */
    showServerCopy: sendTo('list', ({ event }) => {
      assertEvent(event, ['xstate.done.actor.save', 'xstate.done.actor.act']);
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
    actRules: input.act ?? {},
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
      description: 'The list is shown; a row may be opened in the dialog, or acted on (asked about first when the act says so).',
      on: {
        'record.edit': { target: 'editing', actions: assign(({ event }) => ({ draft: event.draft, plan: event.plan, errors: {} })) },
        'record.act': [
          { guard: and(['mayAct', 'asksFirst']), target: 'confirming', actions: 'holdAct' },
          { guard: 'mayAct', target: 'acting', actions: 'holdAct' },
        ],
      },
    },
    editing: {
      description: 'The dialog is open with the draft; submit needs a ready draft, and its rules are checked before any call.',
      on: {
        'record.change': {
          // Typing in a field clears its sentence; the next submit checks again.
          actions: assign(({ context, event }) => ({
            draft: context.rules.change ? context.rules.change(context.draft!, event.patch) : { ...context.draft, ...event.patch },
            errors: Object.fromEntries(Object.entries(context.errors).filter(([field]) => !(field in event.patch))),
          })),
        },
        'form.submit': [
          // The last refusal's sentence goes as the draft is sent again.
          { guard: and(['draftIsReady', 'draftIsValid']), target: 'saving', actions: assign({ errors: {} }) },
          { guard: 'draftIsReady', actions: 'showErrors' },
        ],
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
        onError: { target: 'editing', actions: ['reportSaveFailed', 'showSaveFailure'] },
      },
    },
    confirming: {
      description: 'Asks before the act (a delete, a deactivation): nothing is sent until the person confirms.',
      on: {
        'act.confirm': 'acting',
        'act.cancel': { target: 'browsing', actions: 'closeQuestion' },
      },
    },
    acting: {
      description: 'The act on the target is running; its row (or the question) shows it is busy until the server answers.',
      tags: ['busy'],
      invoke: {
        id: 'act',
        src: 'act',
        input: ({ context }) => context.target!,
        onDone: [
          { guard: 'actUpserts', target: 'browsing', actions: ['showServerCopy', 'reportDone', 'closeQuestion'] },
          { guard: 'actKeepsList', target: 'browsing', actions: ['reportDone', 'closeQuestion'] },
          { target: 'browsing', actions: ['reportDone', 'refetchList', 'closeQuestion'] },
        ],
        onError: [
          { guard: 'alreadyGone', target: 'browsing', actions: ['reportDone', 'refetchList', 'closeQuestion'] },
          { guard: 'askAgain', target: 'confirming', actions: 'reportActFailed' },
          { target: 'browsing', actions: ['reportActFailed', 'closeQuestion'] },
        ],
      },
    },
  },
});

export type RecordEditorMachine = typeof recordEditorMachine;

/**
 * Whether the screen's rule ever lets `target` be acted on, whatever runs now (`can()` is also false while another
 * act runs): a control it never applies to is disabled, one that only waits is read-only, so focus stays on it.
 */
export const mayEverAct = (snapshot: SnapshotFrom<RecordEditorMachine>, target: Draft): boolean => ruleAllowsAct(snapshot.context.rules, target);
