import { fromPromise } from 'xstate';

/**
 * The default for every side-effect slot: src/ provides the real actor with `machine.provide`, tests provide
 * fakes. A machine started without one fails loudly instead of silently doing nothing.
 */
export function notProvided<TOutput, TInput>(name: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(`actor ${name} is not provided`);
  });
}
