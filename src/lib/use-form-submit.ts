import { useMachine } from '@xstate/react';
import { useMemo, useRef } from 'react';
import { fromPromise } from 'xstate';
import { formSubmitMachine } from '../../machines/form-submit.machine';
import { errorText } from '../api/api-error';

/**
 * Runs one form's submission through the form-submit machine. `submit` does the call; a failure becomes the
 * server's sentence, else `fallbackError` (the spec's wording).
 */
export function useFormSubmit<TValues, TResult>(submit: (values: TValues) => Promise<TResult>, fallbackError: string) {
  // The latest callback, so the machine never needs re-creating.
  const latest = useRef(submit);
  latest.current = submit;
  const [snapshot, send] = useMachine(
    formSubmitMachine.provide({
      actors: {
        submit: fromPromise(async ({ input }) => {
          try {
            return await latest.current(input as TValues);
          } catch (error) {
            throw new Error(errorText(error, fallbackError));
          }
        }),
      },
    }),
  );
  const commands = useMemo(
    () => ({
      submit: (values: TValues) => send({ type: 'form.submit', values }),
      dismissError: () => send({ type: 'form.dismissError' }),
      reset: () => send({ type: 'form.reset' }),
    }),
    [send],
  );
  return {
    busy: snapshot.hasTag('busy'),
    succeeded: snapshot.matches('succeeded'),
    error: snapshot.context.error,
    result: snapshot.context.result as TResult | null,
    ...commands,
  };
}
