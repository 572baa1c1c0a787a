import { fromPromise } from 'xstate';

/**
 * A fake promise actor for model tests: it records each input and never settles, so the generated path decides
 * the outcome by sending `xstate.done.actor.*` / `xstate.error.actor.*` itself. `record` is called when the actor
 * starts (not when the fake is made), so it can push to a list the test resets for every path.
 */
export function pendingActor<TOutput, TInput>(record: (input: TInput) => void = () => {}) {
  return fromPromise<TOutput, TInput>(({ input }) => {
    record(input);
    return new Promise<TOutput>(() => {});
  });
}
