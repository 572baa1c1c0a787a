import { assertEvent, assign, setup } from 'xstate';
import { POLICY_LOAD_FAILED, POLICY_MAX_CHARS, POLICY_MAX_WORDS, POLICY_NEAR_RATIO, POLICY_UPDATE_FAILED, POLICY_UPDATED } from '../contract/global-policy-constants';
import { countWords } from '../shared/word-count';
import { serverDetailOf } from './load-failure';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { report } from './report';

/**
 * The Global Policy page's editor (administration spec section 2 "Global Policy page", section 4 "Global policy
 * editor", section 5, the Global policy texts of section 8): the organisation's policy prompt, which joins the
 * system prompt of every reply.
 *
 * States: `loading` (tag `loading`, invokes `loadPolicy`) -> `clean`, or `loadFailed` ('Failed to load global
 * policy'; `policy.retry`). `clean` (the text is the saved one) and `dirty` (it differs: unsaved changes) follow
 * every `policy.change`; `policy.reset` brings the saved text back. `policy.save` is taken only from `dirty`,
 * within POLICY_MAX_WORDS (so Save is disabled when nothing changed, when over the limit and while saving), and
 * (and POLICY_MAX_CHARS characters) goes to `saving` (tag `busy`, invokes `savePolicy` with the text trimmed, empty sent as null) -> `saved` ('Global
 * policy updated successfully'; the saved text is what the server stored) or `error` (the server's sentence, else
 * 'Failed to update global policy'; the text is kept, and can be saved again).
 *
 * Leaving the page with unsaved changes asks first: `policy.leave` (the router is about to leave; taken only in
 * `dirty` and `error`, so `can` tells the view whether to hold the navigation) -> `leaving` (tag `confirmingLeave`:
 * the view shows 'Discard unsaved changes?'); `policy.stay` goes back to editing with the text kept, `policy.discard`
 * drops the changes and ends in `left` (the view lets the navigation go on).
 */

export interface PolicyEditorContext {
  /** The text as last saved (or loaded); '' for no policy. */
  saved: string;
  /** The text in the editor. */
  text: string;
}

export type PolicyEditorEvent =
  | { type: 'policy.change'; text: string }
  | { type: 'policy.reset' }
  | { type: 'policy.save' }
  | { type: 'policy.retry' }
  | { type: 'policy.leave' }
  | { type: 'policy.stay' }
  | { type: 'policy.discard' };

/** Within the server's limits: the words (the spec's), and the characters (so long "words" cannot pass). */
export type WordCountLevel = 'normal' | 'near' | 'over';

/** The counter's state: normal, near the limit (above 90% and not over), or over the limit. */
export function wordCountLevel(words: number): WordCountLevel {
  if (words > POLICY_MAX_WORDS) return 'over';
  return words > POLICY_MAX_WORDS * POLICY_NEAR_RATIO ? 'near' : 'normal';
}

export const policyFits = (text: string): boolean => countWords(text) <= POLICY_MAX_WORDS && text.trim().length <= POLICY_MAX_CHARS;

/** What is stored: trimmed, and no text is no policy. */
export const policyPayload = (text: string): string | null => text.trim() || null;

export const policyEditorMachine = setup({
  types: {
    context: {} as PolicyEditorContext,
    events: {} as PolicyEditorEvent,
    emitted: {} as Notice,
    tags: {} as 'loading' | 'busy' | 'unsaved' | 'confirmingLeave',
  },
  actors: {
    loadPolicy: notProvided<string | null, void>('loadPolicy'),
    savePolicy: notProvided<string | null, { policy_prompt: string | null }>('savePolicy'),
  },
  guards: {
    /** After the change, the text differs from the saved one. */
    changesSaved: ({ context, event }) => {
      assertEvent(event, 'policy.change');
      return event.text !== context.saved;
    },
    fitsLimit: ({ context }) => policyFits(context.text),
  },
  actions: {
    setText: assign(({ event }) => {
      assertEvent(event, 'policy.change');
      return { text: event.text };
    }),
    restoreSaved: assign(({ context }) => ({ text: context.saved })),
    reportLoadFailed: report(() => notice('error', POLICY_LOAD_FAILED)),
    reportSaved: report(() => notice('success', POLICY_UPDATED)),
    reportSaveFailed: report(({ event }: { event: { error?: unknown } }) => notice('error', serverDetailOf(event.error) ?? POLICY_UPDATE_FAILED)),
  },
}).createMachine({
  id: 'policyEditor',
  context: { saved: '', text: '' },
  initial: 'loading',
  states: {
    loading: {
      description: 'The global policy is being loaded.',
      tags: ['loading'],
      invoke: {
        id: 'loadPolicy',
        src: 'loadPolicy',
        onDone: { target: 'clean', actions: assign(({ event }) => ({ saved: event.output ?? '', text: event.output ?? '' })) },
        onError: { target: 'loadFailed', actions: 'reportLoadFailed' },
      },
    },
    loadFailed: {
      description: 'The policy could not be loaded: Failed to load global policy, with Retry.',
      on: { 'policy.retry': 'loading' },
    },
    clean: {
      description: 'The editor shows the saved policy; Save is disabled.',
      on: { 'policy.change': { guard: 'changesSaved', target: 'dirty', actions: 'setText' } },
    },
    saved: {
      description: 'The policy was saved: Global policy updated successfully, and the editor shows what the server stored.',
      on: { 'policy.change': { guard: 'changesSaved', target: 'dirty', actions: 'setText' } },
    },
    dirty: {
      description: 'The text differs from the saved policy: unsaved changes, Save and Reset are offered.',
      tags: ['unsaved'],
      on: {
        'policy.leave': 'leaving',
        'policy.change': [{ guard: 'changesSaved', actions: 'setText' }, { target: 'clean', actions: 'setText' }],
        'policy.reset': { target: 'clean', actions: 'restoreSaved' },
        'policy.save': { guard: 'fitsLimit', target: 'saving' },
      },
    },
    saving: {
      description: 'The policy is being saved; the editor waits, busy.',
      tags: ['busy'],
      invoke: {
        id: 'savePolicy',
        src: 'savePolicy',
        input: ({ context }) => ({ policy_prompt: policyPayload(context.text) }),
        onDone: {
          target: 'saved',
          actions: [assign(({ event }) => ({ saved: event.output ?? '', text: event.output ?? '' })), 'reportSaved'],
        },
        onError: { target: 'error', actions: 'reportSaveFailed' },
      },
    },
    /** A failed save: the text is kept, unsaved, and can be saved again. */
    error: {
      description: 'Saving failed: the sentence of the server shows, the text is kept and can be saved again.',
      tags: ['unsaved'],
      on: {
        'policy.leave': 'leaving',
        'policy.change': [{ guard: 'changesSaved', target: 'dirty', actions: 'setText' }, { target: 'clean', actions: 'setText' }],
        'policy.reset': { target: 'clean', actions: 'restoreSaved' },
        'policy.save': { guard: 'fitsLimit', target: 'saving' },
      },
    },
    /** Leaving with unsaved changes: the page asks whether to discard them (the navigation waits). */
    leaving: {
      tags: ['unsaved', 'confirmingLeave'],
      description: 'The person is leaving with unsaved changes; the page asks whether to discard them.',
      on: {
        'policy.stay': 'dirty',
        'policy.discard': { target: 'left', actions: 'restoreSaved' },
      },
    },
    /** The changes were discarded and the page is left. */
    left: { description: 'The changes were discarded and the person leaves the page.', type: 'final' },
  },
});

export type PolicyEditorMachine = typeof policyEditorMachine;
