import type { SnapshotFrom } from 'xstate';
import { FEEDBACK_DESCRIPTION_MAX_LENGTH } from '../../../contract/feedback-constants';
import { feedbackMachine } from '../../../machines/feedback.machine';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof feedbackMachine>;

/** A description that fits, and one a character too long (refused in the form, before any call). */
export const FITS = 'Automated path test: the answers cite the right policy.';
export const TOO_LONG = 'x'.repeat(FEEDBACK_DESCRIPTION_MAX_LENGTH + 1);
/** The rating a path picks (the form starts on Average). */
export const PICKED_LEVEL = 'GOOD';

const tooLong = (s: Snap) => s.context.description.trim().length > FEEDBACK_DESCRIPTION_MAX_LENGTH;

/**
 * The person opens the form from the profile menu (either kind), picks a rating (feedback only: a report has
 * none), writes a description that fits or one too long, submits or cancels; the server receives it (or, with a
 * stub, fails). Not generated: what the view does not offer — submitting or closing while the form is closed or
 * being sent (Cancel is disabled and the modal not dismissable while sending).
 */
function eventsFor(s: Snap): Step[] {
  switch (valueName(s.value)) {
    case 'closed':
      return [
        { type: 'feedback.open', kind: 'feedback' },
        { type: 'feedback.open', kind: 'report' },
      ];
    case 'editing':
      return [
        ...(s.context.type === 'feedback' ? [{ type: 'field.level', level: PICKED_LEVEL }] : []),
        { type: 'field.description', text: FITS },
        { type: 'field.description', text: TOO_LONG },
        { type: 'feedback.submit' },
        { type: 'feedback.close' },
      ];
    case 'submitting':
      return [
        { type: 'xstate.done.actor.submit', output: { id: 'f1' }, actorId: 'submit' },
        { type: 'xstate.error.actor.submit', error: new Error('500'), actorId: 'submit' },
      ];
    default:
      return [];
  }
}


const generated = maximalPaths({
  machine: feedbackMachine,
  inputs: [undefined],
  events: eventsFor as never,
  // The kind decides what the form shows (title, rating), the length what the guard says. A closed form keeps its
  // last kind, which the next open replaces: one closed state, and each path opens the form once.
  key: (s) => (s.matches('closed') ? '"closed"' : JSON.stringify([s.value, s.context.type, tooLong(s)])),
  simpleKey: (s) => JSON.stringify(s.value),
  edgeKeys: true,
});

/** The paths that open the form as `kind` only. */
const opening = (kind: string) => generated.filter((p) => p.events.every((e) => e.type !== 'feedback.open' || e.kind === kind));

export { feedbackMachine };
/**
 * The two kinds are two forms to a person (title, rating shown or not, the description's label) but one machine:
 * the fewest paths that reach everything are chosen for each kind, else every path would open the first kind.
 */
export const feedbackPaths = asSteps<undefined>([
  ...coveringPaths(feedbackMachine, opening('feedback')),
  ...coveringPaths(feedbackMachine, opening('report')),
]);
