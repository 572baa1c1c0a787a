import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { formSubmitMachine, type FormSubmitEvent } from '../../machines/form-submit.machine';
import { runModelTest } from './support/run-model';

const submitted: unknown[] = [];

const eventsFor = (value: string): FormSubmitEvent[] => {
  switch (value) {
    case 'idle':
      return [{ type: 'form.submit', values: { email: 'a@b.c' } }, { type: 'form.dismissError' }];
    case 'submitting':
      return [
        { type: 'xstate.done.actor.submit', output: { message: 'sent' } } as never,
        { type: 'xstate.error.actor.submit', error: new Error('Failed to send reset email. Please try again.') } as never,
        { type: 'form.submit', values: { email: 'again@b.c' } },
      ];
    case 'succeeded':
      return [{ type: 'form.reset' }];
    default:
      return [];
  }
};

runModelTest({
  name: 'form-submit',
  machine: formSubmitMachine,
  testMachine: () =>
    formSubmitMachine.provide({
      actors: {
        submit: fromPromise<unknown, unknown>(({ input }) => {
          submitted.push(input);
          return new Promise(() => {});
        }),
      },
    }),
  inputs: [undefined],
  events: (s) => eventsFor(s.value as string),
  key: (s) => JSON.stringify(s.value),
  checks: {
    idle: (s, e) => {
      expect(s.hasTag('busy')).toBe(false);
      if (e?.type === 'xstate.error.actor.submit') expect(s.context.error).toBe('Failed to send reset email. Please try again.');
      if (e?.type === 'form.dismissError' || e?.type === 'form.reset' || e === null) expect(s.context.error).toBeNull();
    },
    submitting: (s, e) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.context.error).toBeNull();
      // A second submit while one is under way is ignored: one call per click.
      expect(s.can({ type: 'form.submit', values: {} })).toBe(false);
      if (e?.type === 'form.submit') expect(submitted.at(-1)).toEqual({ email: 'a@b.c' });
    },
    succeeded: (s) => {
      expect(s.context.result).toEqual({ message: 'sent' });
      expect(s.context.error).toBeNull();
    },
  },
});
