import { assertEvent, assign, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import { notProvided } from './not-provided';
import { report, type ReportsTo } from './report';

/**
 * One poll behind every "wait until the server says so" (ARCHITECTURE.md "Screens made of machines"): wait an
 * interval, run one check, stop when the check's answer says so, else wait again, up to a number of attempts.
 *
 * A use of it is a specialisation, not a copy: the stop condition is the guard slot `isFinished`, given with
 * `pollMachine.provide({ guards: { isFinished } })` in machines/ (it is behaviour, so it stays pure logic
 * here), and the check is the actor slot `check`, given by src/ (it is a request).
 * See title-poll.machine.ts and chat-send.machine.ts (`followReplyMachine`).
 *
 * States: `waiting` (tag `polling`; after POLL_INTERVAL = `input.intervalMs` -> `checking`), `checking` (tags
 * `polling`, `checking`; invokes `check` with `input.checkInput`), and the final states `finished` (isFinished
 * said yes), `gaveUp` (maxAttempts checks, none finished), `failed` (a check failed and `stopOnError`),
 * `stopped` (`poll.stop`). The first check runs after one interval, not at once: every use polls for something
 * the server is doing right now, which is never ready the moment the poll starts.
 *
 * Every finished check is one attempt, a failed one included. Each answer is reported (`report`: emitted, and
 * sent to the parent when there is one) as `poll.progress` `{ value }`, so the parent can show intermediate
 * answers (a reply growing) before the output says how it ended.
 *
 * Output: {@link PollOutput}.
 */

/** `parent`: the machine that gets each `poll.progress` (ReportsTo). */
export interface PollInput<TCheckInput = unknown> extends ReportsTo {
  /** The time before each check (the `POLL_INTERVAL` delay). */
  intervalMs: number;
  /** Checks before giving up (at least 1). */
  maxAttempts: number;
  /** A failed check ends the poll (`failed`) instead of counting as one more attempt. */
  stopOnError: boolean;
  /** The `check` actor's input, the same for every check. */
  checkInput: TCheckInput;
}

export type PollStatus = 'finished' | 'gaveUp' | 'failed' | 'stopped';

export interface PollOutput<TValue = unknown> {
  status: PollStatus;
  /** The last answer of `check` (undefined when none came). */
  value: TValue | undefined;
  /** The last check's failure (null when the last check answered). */
  error: unknown;
  /** Finished checks, failed ones included. */
  attempts: number;
}

export interface PollContext extends PollInput {
  attempts: number;
  value: unknown;
  error: unknown;
}

export type PollEvent = { type: 'poll.stop' };

/** The check's outcomes, named so the actions can `assertEvent` them. */
type CheckEvent = DoneActorEvent<unknown, 'check'> | ErrorActorEvent<unknown, 'check'>;

/** Reported after every answered check. */
export interface PollProgress<TValue = unknown> {
  type: 'poll.progress';
  value: TValue;
}

export const pollMachine = setup({
  types: {
    context: {} as PollContext,
    events: {} as PollEvent | CheckEvent,
    input: {} as PollInput,
    output: {} as PollOutput,
    emitted: {} as PollProgress,
    children: {} as { check: 'check' },
    tags: {} as 'polling' | 'checking',
  },
  actors: {
    // Each use has its own value and input types; xstate's logic types are invariant, so an `unknown` slot would
    // refuse a typed check. The machine itself treats the value as unknown (CheckEvent).
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    check: notProvided<any, any>('check'),
  },
  delays: {
    POLL_INTERVAL: ({ context }) => context.intervalMs,
  },
  guards: {
    /** The stop condition, given by each use; the base poll never finishes by itself. */
    isFinished: (_, _params: { value: unknown }) => false,
    /** The check that just ended was the last one allowed (guards run before the attempt is counted). */
    isLastAttempt: ({ context }) => context.attempts + 1 >= context.maxAttempts,
    stopsOnError: ({ context }) => context.stopOnError,
  },
  actions: {
    recordAnswer: assign(({ context, event }) => {
      assertEvent(event, 'xstate.done.actor.check');
      return { attempts: context.attempts + 1, value: event.output, error: null };
    }),
    recordFailure: assign(({ context, event }) => {
      assertEvent(event, 'xstate.error.actor.check');
      return { attempts: context.attempts + 1, error: event.error };
    }),
    reportProgress: report(({ event }) => {
      assertEvent(event, 'xstate.done.actor.check');
      return { type: 'poll.progress', value: event.output } satisfies PollProgress;
    }),
  },
}).createMachine({
  id: 'poll',
  context: ({ input }) => ({ ...input, attempts: 0, value: undefined, error: null }),
  initial: 'waiting',
  on: {
    'poll.stop': '.stopped',
  },
  states: {
    waiting: {
      description: 'Waiting the interval before the next check.',
      tags: ['polling'],
      after: { POLL_INTERVAL: 'checking' },
    },
    checking: {
      description: 'Asking the server once whether what is awaited has happened.',
      tags: ['polling', 'checking'],
      invoke: {
        id: 'check',
        src: 'check',
        // Annotated: with the slot's `any` input type the mapper gets no contextual type.
        input: ({ context }: { context: PollContext }) => context.checkInput,
        onDone: [
          {
            guard: { type: 'isFinished', params: ({ event }) => ({ value: event.output }) },
            target: 'finished',
            actions: ['recordAnswer', 'reportProgress'],
          },
          { guard: 'isLastAttempt', target: 'gaveUp', actions: ['recordAnswer', 'reportProgress'] },
          { target: 'waiting', actions: ['recordAnswer', 'reportProgress'] },
        ],
        onError: [
          { guard: 'stopsOnError', target: 'failed', actions: 'recordFailure' },
          { guard: 'isLastAttempt', target: 'gaveUp', actions: 'recordFailure' },
          { target: 'waiting', actions: 'recordFailure' },
        ],
      },
    },
    finished: { description: 'The server said what was awaited has happened: the poll ends with its answer.', type: 'final', output: { status: 'finished' } },
    gaveUp: { description: 'Every allowed check was made without the awaited answer: the poll ends with the last one.', type: 'final', output: { status: 'gaveUp' } },
    failed: { description: 'A check failed and this poll stops at a failure.', type: 'final', output: { status: 'failed' } },
    stopped: { description: 'The poll was stopped from outside (the person left what it was watching).', type: 'final', output: { status: 'stopped' } },
  },
  // The final state's own output names how the poll ended (the root output receives it as the done event's output).
  output: ({ context, event }) => ({
    status: (event.output as { status: PollStatus }).status,
    value: context.value,
    error: context.error,
    attempts: context.attempts,
  }),
});

export type PollMachine = typeof pollMachine;
