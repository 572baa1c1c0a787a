import { assertEvent, assign, setup, type AnyActorRef } from 'xstate';
import { notProvided } from './not-provided';
import { report } from './report';

/**
 * The one form machine behind every small form (login, registration, profile, password reset request and reset,
 * message edit, conversation rename, the chat composer): it holds the fields' values, checks them before any
 * call, submits them through the provided `submit` actor and reports the outcome.
 *
 * - `editing`: `form.change` sets one or more fields and clears their sentences; `form.submit` goes on only when
 *   the input's `validate` finds nothing, else the sentences are kept in `fieldErrors` (the spec's texts).
 * - `submitting` (tag `busy`): the `submit` actor gets the values. It rejects with an Error whose message is the
 *   sentence to show (`error`); the values are kept, back in `editing`.
 * - `succeeded`: `result` holds the actor's output; `form.succeeded` is reported (emitted, and sent to a parent
 *   machine when there is one) so the owner reacts: navigates, closes, toasts. A failure reports `form.failed`.
 * - `form.reset` returns to `editing` from anywhere, with new values or (without them) the ones held.
 *
 * Generic over the values: the machine stores them as given and only ever passes them to `validate` and
 * `submit`, so a view's typed hook (src/lib/use-form.ts) keeps the types end to end.
 */
export type FormValues = Record<string, unknown>;
export type FieldErrors<V = FormValues> = Partial<Record<keyof V & string, string>>;

export interface FormInput<V extends FormValues = FormValues> {
  values: V;
  /** The fields' sentences for these values; empty when they may be sent. No function: every value may be sent. */
  validate?: (values: V) => FieldErrors<V>;
  /** A machine that runs the form as its child and hears its reports (machines/report.ts); none for a view's own form. */
  parent?: AnyActorRef;
}

export interface FormContext<V extends FormValues = FormValues, R = unknown> {
  values: V;
  validate: ((values: V) => FieldErrors<V>) | null;
  fieldErrors: FieldErrors<V>;
  /** The last submission's failure sentence, until dismissed or submitted again. */
  error: string | null;
  result: R | null;
  parent?: AnyActorRef;
}

export type FormEvent<V extends FormValues = FormValues> =
  | { type: 'form.change'; values: Partial<V> }
  | { type: 'form.submit' }
  | { type: 'form.dismissError' }
  | { type: 'form.reset'; values?: V };

export type FormReported<R = unknown> = { type: 'form.succeeded'; result: R } | { type: 'form.failed'; error: string };

const errorsOf = (context: FormContext) => context.validate?.(context.values) ?? {};

/** Whether the held values pass the check: the submit guard, and what a view reads to enable its button. */
export const formIsValid = (context: Pick<FormContext, 'values' | 'validate'>) =>
  Object.values(errorsOf(context as FormContext)).every((e) => !e);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const formMachine = setup({
  types: {
    context: {} as FormContext,
    events: {} as FormEvent,
    input: {} as FormInput,
    emitted: {} as FormReported,
    tags: {} as 'busy',
    children: {} as { submit: 'submit' },
  },
  actors: { submit: notProvided<unknown, FormValues>('submit') },
  guards: {
    valuesAreValid: ({ context }) => formIsValid(context),
  },
  actions: {
    changeFields: assign(({ context, event }) => {
      assertEvent(event, 'form.change');
      const fieldErrors = { ...context.fieldErrors };
      for (const field of Object.keys(event.values)) delete fieldErrors[field];
      return { values: { ...context.values, ...event.values }, fieldErrors };
    }),
    showFieldErrors: assign(({ context }) => ({ fieldErrors: errorsOf(context) })),
    clearErrors: assign({ error: null, fieldErrors: {} }),
    clearError: assign({ error: null }),
    keepResult: assign({ result: ({ event }) => (event as { output?: unknown }).output ?? null }),
    keepError: assign({ error: ({ event }) => messageOf((event as { error?: unknown }).error) }),
    reportSucceeded: report(({ context }: { context: FormContext }) => ({ type: 'form.succeeded', result: context.result })),
    reportFailed: report(({ context }: { context: FormContext }) => ({ type: 'form.failed', error: context.error as string })),
    resetForm: assign(({ context, event }) => {
      assertEvent(event, 'form.reset');
      return { values: event.values ?? context.values, fieldErrors: {}, error: null, result: null };
    }),
  },
}).createMachine({
  id: 'form',
  context: ({ input }) => ({
    values: input.values,
    validate: input.validate ?? null,
    fieldErrors: {},
    error: null,
    result: null,
    parent: input.parent,
  }),
  on: {
    'form.reset': { target: '.editing', actions: 'resetForm' },
  },
  initial: 'editing',
  states: {
    editing: {
      description: 'The fields take changes; a submit goes on only with values that pass the check, else the fields say why.',
      on: {
        'form.change': { actions: 'changeFields' },
        'form.submit': [{ guard: 'valuesAreValid', target: 'submitting', actions: 'clearErrors' }, { actions: 'showFieldErrors' }],
        'form.dismissError': { actions: 'clearError' },
      },
    },
    submitting: {
      description: 'The values are being sent; a second submit is ignored (one call per click).',
      tags: ['busy'],
      on: {
        // What is typed meanwhile is kept (the chat composer stays editable); what was sent does not change.
        'form.change': { actions: 'changeFields' },
      },
      invoke: {
        id: 'submit',
        src: 'submit',
        input: ({ context }) => context.values,
        onDone: { target: 'succeeded', actions: ['keepResult', 'reportSucceeded'] },
        onError: { target: 'editing', actions: ['keepError', 'reportFailed'] },
      },
    },
    succeeded: {
      description: 'Sent: the result is kept and reported; the owner moves on, or resets the form to edit again.',
    },
  },
});

export type FormMachine = typeof formMachine;
