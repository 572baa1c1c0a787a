import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { fromPromise } from 'xstate';
import { formIsValid, formMachine, type FieldErrors, type FormValues } from '../../machines/form.machine';
import { errorText } from '../api/api-error';

export interface UseFormOptions<V extends object, R> {
  /** The fields' first values (read once, when the form starts). */
  initial: V;
  /** The fields' sentences for these values: a submit goes on only when there are none. */
  validate?: (values: V) => FieldErrors<V>;
  /** The call; a failure becomes the server's sentence, else `fallbackError` (the spec's wording). */
  submit: (values: V) => Promise<R>;
  fallbackError: string;
  /** What the screen does once the form has been sent (navigate, close, toast). */
  onSucceeded?: (result: R, values: V) => void;
  /** What the screen does with a failure it shows elsewhere than in the form (a toast). */
  onFailed?: (error: string) => void;
}

/**
 * One form on the form machine (machines/form.machine.ts): the view renders `values`, `fieldErrors`, `error`,
 * `busy` and `succeeded` from the snapshot and sends events (`change`, `submit`, `dismissError`, `reset`); the
 * success and failure reactions are subscribers to the machine's reported events.
 */
export function useForm<V extends object, R>(options: UseFormOptions<V, R>) {
  // The latest callbacks, so the machine is made once.
  const latest = useRef(options);
  latest.current = options;
  const [machine] = useState(() =>
    formMachine.provide({
      actors: {
        submit: fromPromise(async ({ input }) => {
          try {
            return await latest.current.submit(input as V);
          } catch (error) {
            throw new Error(errorText(error, latest.current.fallbackError));
          }
        }),
      },
    }),
  );
  const actor = useActorRef(machine, {
    input: { values: options.initial as FormValues, validate: options.validate as ((values: FormValues) => FieldErrors) | undefined },
  });

  useEffect(() => {
    const subs = [
      actor.on('form.succeeded', (e) => latest.current.onSucceeded?.(e.result as R, actor.getSnapshot().context.values as V)),
      actor.on('form.failed', (e) => latest.current.onFailed?.(e.error)),
    ];
    return () => subs.forEach((s) => s.unsubscribe());
  }, [actor]);

  const values = useSelector(actor, (s) => s.context.values) as V;
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors) as FieldErrors<V>;
  const error = useSelector(actor, (s) => s.context.error);
  const result = useSelector(actor, (s) => s.context.result) as R | null;
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const succeeded = useSelector(actor, (s) => s.matches('succeeded'));
  // The machine's own guard: whether a submit would go on now (valid values, nothing under way).
  const canSubmit = useSelector(actor, (s) => s.matches('editing') && formIsValid(s.context));

  const commands = useMemo(
    () => ({
      change: (changed: Partial<V>) => actor.send({ type: 'form.change', values: changed as Partial<FormValues> }),
      submit: () => actor.send({ type: 'form.submit' }),
      dismissError: () => actor.send({ type: 'form.dismissError' }),
      reset: (next?: V) => actor.send({ type: 'form.reset', values: next as FormValues | undefined }),
    }),
    [actor],
  );
  return { values, fieldErrors, error, result, busy, succeeded, canSubmit, ...commands };
}
