import type { SnapshotFrom } from 'xstate';
import { formMachine, type FormInput } from '../../../machines/form.machine';
import { EMPTY_RESET_REQUEST, resetRequestErrors } from '../../../src/features/auth/reset-request-check';
import { asSteps, coveringPaths, maximalPaths, type Step } from './paths-support';
import type { LeftOut } from '../../model/support/model-paths';

type Snap = SnapshotFrom<typeof formMachine>;

/** What a path types: nothing, something that is no address, and an address no account has. */
export const BLANK = '   ';
export const NOT_AN_ADDRESS = 'nobody-at-example';
export const UNKNOWN_ADDRESS = 'nobody@unknown.example';

/** The form as the 'Forgot Password' modal runs it (src/features/auth/reset-request-modal.tsx). */
const input: FormInput = { values: EMPTY_RESET_REQUEST, validate: resetRequestErrors as FormInput['validate'] };

const email = (s: Snap) => String(s.context.values.email ?? '');

/**
 * The one form machine, driven through the 'Forgot Password' modal of the login screen: the person types an
 * address (blank, malformed, well formed), sends it, reads the field's sentence or the server's failure, dismisses
 * the failure, closes the modal (Cancel, or OK once sent: the form starts afresh) and opens it again. Not
 * generated: what the view does not offer — typing or sending while a request is under way (the field and the
 * buttons are disabled), dismissing a failure that is not shown.
 */
function eventsFor(s: Snap): Step[] {
  const reset = { type: 'form.reset', values: EMPTY_RESET_REQUEST };
  switch (s.value) {
    case 'editing':
      return [
        ...[BLANK, NOT_AN_ADDRESS, UNKNOWN_ADDRESS].filter((v) => v !== email(s)).map((v) => ({ type: 'form.change', values: { email: v } })),
        { type: 'form.submit' },
        ...(s.context.error !== null ? [{ type: 'form.dismissError' }] : []),
        reset,
      ];
    case 'submitting':
      return [
        { type: 'xstate.done.actor.submit', output: 'sent', actorId: 'submit' },
        { type: 'xstate.error.actor.submit', error: new Error(FAILURE), actorId: 'submit' },
      ];
    case 'succeeded':
      return [reset];
    default:
      return [];
  }
}

/** The stub's failure: the server's sentence is what the person reads. */
export const FAILURE = 'Internal Server Error';

export { formMachine };
export const formPaths = asSteps<FormInput>(
  coveringPaths(
    formMachine,
    maximalPaths({
      machine: formMachine,
      inputs: [input],
      events: eventsFor as never,
      // What the person sees decides the next step: the typed address, the field's sentence, the failure shown.
      key: (s) => JSON.stringify([s.value, email(s), s.context.fieldErrors.email ?? null, s.context.error !== null]),
      simpleKey: (s) => JSON.stringify([s.value, s.context.error !== null]),
      edgeKeys: true,
    }),
  ),
);

/** What no browser can cause in the modal (test/e2e/paths/coverage.ts counts the rest). */
export const formUnforceable: LeftOut[] = [
  { why: 'typing while the request is under way: the field is disabled then', transitions: ['form.submitting --form.change#0--> (self)'] },
];
