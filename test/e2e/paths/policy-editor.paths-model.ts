import type { SnapshotFrom } from 'xstate';
import { POLICY_MAX_WORDS } from '../../../contract/global-policy-constants';
import { countWords } from '../../../shared/word-count';
import { policyEditorMachine, policyPayload } from '../../../machines/policy-editor.machine';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof policyEditorMachine>;

/**
 * What the person puts in the editor, by kind: their own text (which fits), a text over the word limit, or the
 * saved text back. The browser fills its own text for each kind (the test's unique words; the policy the page
 * loaded or the last save stored), so the model's texts only stand for them.
 */
export type TextKind = 'edited' | 'over' | 'saved';

/** The policy the page finds (whatever the organisation has; the browser reads it from the load's response). */
const MODEL_FOUND = 'The policy the page found.';
/** The person's own text, typed with whitespace around it (the server stores it trimmed). */
const MODEL_EDITED = '  The path test policy.\n';
/** One word over the limit (the counter says so, Save is disabled). */
export const OVER = Array.from({ length: POLICY_MAX_WORDS + 1 }, (_, i) => `w${i}`).join(' ');

/** The kind of what is in the editor now. */
const kindOf = (s: Snap): TextKind => (s.context.text === s.context.saved ? 'saved' : countWords(s.context.text) > POLICY_MAX_WORDS ? 'over' : 'edited');
const modelText = (s: Snap, kind: TextKind) => (kind === 'saved' ? s.context.saved : kind === 'over' ? OVER : MODEL_EDITED);

/**
 * The person opens /global-policy (the load is the path's first event), retries a failed load, puts another
 * kind of text in the editor, resets, saves; the server answers (or, with a stub, fails). With unsaved changes
 * they follow a link to another page (`policy.leave`: the page asks first), then stay on the page or discard the
 * changes and leave. Not generated: what
 * the view does not offer — filling the text that is already there (no change reaches the machine), Save when
 * nothing changed or over the limit (disabled), Reset when nothing changed (disabled), typing while saving (the
 * editor is disabled), saving before the policy has loaded (no form).
 */
function eventsFor(s: Snap): Step[] {
  const state = valueName(s.value);
  switch (state) {
    case 'loading':
      return [
        { type: 'xstate.done.actor.loadPolicy', output: MODEL_FOUND, actorId: 'loadPolicy' },
        { type: 'xstate.error.actor.loadPolicy', error: new Error('HTTP 500'), actorId: 'loadPolicy' },
      ];
    case 'loadFailed':
      return [{ type: 'policy.retry' }];
    case 'saving':
      return [
        // The server answers what it stored: the text trimmed, none for no text.
        { type: 'xstate.done.actor.savePolicy', output: policyPayload(s.context.text), actorId: 'savePolicy' },
        { type: 'xstate.error.actor.savePolicy', error: new Error('Network Error'), actorId: 'savePolicy' },
      ];
    case 'clean':
    case 'saved':
    case 'dirty':
    case 'error': {
      const now = kindOf(s);
      const kinds: TextKind[] = ['edited', 'over', 'saved'];
      return [
        ...kinds.filter((k) => k !== now).map((kind) => ({ type: 'policy.change', text: modelText(s, kind), kind })),
        ...(now !== 'saved' ? [{ type: 'policy.reset' }] : []),
        ...(now === 'edited' ? [{ type: 'policy.save' }] : []),
        ...(state === 'dirty' || state === 'error' ? [{ type: 'policy.leave' }] : []),
      ];
    }
    case 'leaving':
      return [{ type: 'policy.stay' }, { type: 'policy.discard' }];
    default:
      return [];
  }
}


export { policyEditorMachine };
/** The fewest of the longest paths that reach every state and transition the model reaches. */
export const policyEditorPaths = asSteps<undefined>(
  coveringPaths(
    policyEditorMachine,
    maximalPaths({
      machine: policyEditorMachine,
      inputs: [undefined],
      events: eventsFor as never,
      // What the guards read: whether the text is the saved one, whether it is over the limit.
      key: (s) => JSON.stringify([s.value, kindOf(s)]),
      simpleKey: (s) => JSON.stringify(s.value),
      edgeKeys: true,
    }),
  ),
);
