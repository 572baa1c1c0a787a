import { assertEvent, assign, setup } from 'xstate';
import { notProvided } from './not-provided';

/**
 * One submission of a form: idle -> submitting -> succeeded, or back to idle with the error sentence.
 * Shared by the small forms (password reset request and reset, profile); the `submit` actor does the call and
 * rejects with an Error whose message is the sentence to show.
 */
export interface FormSubmitContext {
  error: string | null;
  result: unknown;
}

export type FormSubmitEvent =
  | { type: 'form.submit'; values: unknown }
  | { type: 'form.dismissError' }
  | { type: 'form.reset' };

export const formSubmitMachine = setup({
  types: {
    context: {} as FormSubmitContext,
    events: {} as FormSubmitEvent,
    tags: {} as 'busy',
  },
  actors: { submit: notProvided<unknown, unknown>('submit') },
  actions: {
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'formSubmit',
  context: { error: null, result: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'form.submit': { target: 'submitting', actions: 'clearError' },
        'form.dismissError': { actions: 'clearError' },
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'submit',
        src: 'submit',
        input: ({ event }: { event: FormSubmitEvent }) => {
          assertEvent(event, 'form.submit');
          return event.values;
        },
        onDone: { target: 'succeeded', actions: assign(({ event }) => ({ result: event.output })) },
        onError: {
          target: 'idle',
          actions: assign({ error: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)) }),
        },
      },
    },
    succeeded: {
      on: { 'form.reset': { target: 'idle', actions: assign({ result: null, error: null }) } },
    },
  },
});
