import { afterEach, describe, it, vi } from 'vitest';
import { expect } from './support/expect';
import { assign, createActor, fromPromise, setup, type EventFrom, type SnapshotFrom } from 'xstate';
import { pollMachine, type PollInput, type PollOutput, type PollProgress } from '../../machines/poll.machine';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

/** The model runs a specialised poll, as every use does: 'ready' is the answer that ends it. */
const modelMachine = pollMachine.provide({ guards: { isFinished: (_, { value }) => value === 'ready' } });
type Snap = SnapshotFrom<typeof modelMachine>;
type Ev = EventFrom<typeof modelMachine>;

const AFTER = 'xstate.after.POLL_INTERVAL.poll.waiting';
const MAX = 3;
const checkInput = { conversationId: 'c1' };
const keepGoing: PollInput = { intervalMs: 50, maxAttempts: MAX, stopOnError: false, checkInput };
const stopOnError: PollInput = { intervalMs: 50, maxAttempts: MAX, stopOnError: true, checkInput };
const failure = new Error('Network Error');

let checks: unknown[] = [];
let emitted: PollProgress[] = [];
let emittedSeen = 0;
let prev: Snap | null = null;

const testMachine = () =>
  modelMachine.provide({
    actors: {
      check: pendingActor<unknown, unknown>((input) => checks.push(input)),
    },
  });

const eventsFor = (s: Snap): Ev[] => {
  switch (s.value) {
    case 'waiting':
      return [{ type: AFTER } as never, { type: 'poll.stop' }];
    case 'checking':
      return [
        { type: 'xstate.done.actor.check', output: 'not yet', actorId: 'check' },
        { type: 'xstate.done.actor.check', output: 'ready', actorId: 'check' },
        { type: 'xstate.error.actor.check', error: failure, actorId: 'check' },
        { type: 'poll.stop' },
      ];
    default:
      return [];
  }
};

const outputOf = (s: Snap) => s.output as PollOutput;

/** Checks shared by every state: tags, the attempts bound, one attempt per finished check, exactly the reported events. */
const check = (fn: (s: Snap, e: { type: string } | null, p: Snap | null) => void) => (s: Snap, e: { type: string } | null) => {
  const p = prev;
  const fresh = emitted.slice(emittedSeen);
  emittedSeen = emitted.length;
  expect(s.hasTag('polling')).toBe(s.matches('waiting') || s.matches('checking'));
  expect(s.hasTag('checking')).toBe(s.matches('checking'));
  expect(s.status).toBe(s.matches('waiting') || s.matches('checking') ? 'active' : 'done');
  expect(s.context.attempts).toBeGreaterThanOrEqual(0);
  expect(s.context.attempts).toBeLessThanOrEqual(s.context.maxAttempts);
  // The check runs exactly in `checking`; leaving it (answer, failure, stop) stops it.
  expect(Boolean(s.children.check)).toBe(s.matches('checking'));
  const finishedCheck = e?.type === 'xstate.done.actor.check' || e?.type === 'xstate.error.actor.check';
  if (p) expect(s.context.attempts).toBe(p.context.attempts + (finishedCheck ? 1 : 0));
  if (e?.type === 'xstate.done.actor.check') {
    const value = (e as unknown as { output: unknown }).output;
    expect(s.context.value).toBe(value);
    expect(s.context.error).toBeNull();
    expect(fresh).toEqual([{ type: 'poll.progress', value }]);
  } else {
    expect(fresh).toEqual([]);
  }
  if (e?.type === 'xstate.error.actor.check') expect(s.context.error).toBe(failure);
  if (s.status === 'done') {
    expect(outputOf(s)).toEqual({ status: s.value, value: s.context.value, error: s.context.error, attempts: s.context.attempts });
  }
  fn(s, e, p);
  prev = s;
};

runModelTest({
  name: 'poll',
  machine: modelMachine,
  testMachine,
  onActor: (actor) => {
    checks = [];
    emitted = [];
    emittedSeen = 0;
    prev = null;
    actor.on('*', (ev) => emitted.push(ev));
  },
  inputs: [keepGoing, stopOnError],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, s.context.attempts]),
  simpleKey: (s) => JSON.stringify(s.value),
  edgeKeys: true,
  checks: {
    waiting: check((s, e) => {
      expect(s.context.attempts).toBeLessThan(s.context.maxAttempts);
      // Only a check that did not end the poll comes back here: an answer not yet ready, or a failure that counts.
      if (e) expect(['xstate.done.actor.check', 'xstate.error.actor.check']).toContain(e.type);
      if (e?.type === 'xstate.error.actor.check') expect(s.context.stopOnError).toBe(false);
    }),
    checking: check((s, e) => {
      expect(e?.type).toBe(AFTER);
      // One check per attempt, each with the input's checkInput.
      expect(checks.length).toBe(s.context.attempts + 1);
      expect(checks.at(-1)).toBe(checkInput);
    }),
    finished: check((s, e) => {
      expect(e?.type).toBe('xstate.done.actor.check');
      expect(outputOf(s).value).toBe('ready');
    }),
    gaveUp: check((s) => {
      expect(s.context.attempts).toBe(MAX);
      expect(checks.length).toBe(MAX);
      expect(outputOf(s).value).not.toBe('ready');
    }),
    failed: check((s, e) => {
      expect(s.context.stopOnError).toBe(true);
      expect(e?.type).toBe('xstate.error.actor.check');
      expect(outputOf(s).error).toBe(failure);
    }),
    stopped: check((_s, e) => {
      expect(e?.type).toBe('poll.stop');
    }),
  },
});

describe('poll (examples)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const run = (answers: Array<string | Error>, input: PollInput, machine = modelMachine) => {
    const calls: number[] = [];
    const actor = createActor(
      machine.provide({
        actors: {
          check: fromPromise<string, unknown>(async () => {
            calls.push(Date.now());
            const next = answers.shift() ?? 'not yet';
            if (next instanceof Error) throw next;
            return next;
          }),
        },
      }),
      { input },
    );
    const out: PollProgress[] = [];
    actor.on('poll.progress', (e) => out.push(e));
    actor.start();
    return { actor, calls, out };
  };

  it('waits the interval from its input before each check, and ends with the answer that finishes it', async () => {
    vi.useFakeTimers();
    const { actor, calls, out } = run(['not yet', new Error('500'), 'ready'], { ...keepGoing, intervalMs: 700, maxAttempts: 10 });
    await vi.advanceTimersByTimeAsync(699);
    expect(calls.length).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.length).toBe(1);
    await vi.advanceTimersByTimeAsync(1400);
    expect(calls.length).toBe(3);
    expect(actor.getSnapshot().output).toEqual({ status: 'finished', value: 'ready', error: null, attempts: 3 });
    expect(out).toEqual([
      { type: 'poll.progress', value: 'not yet' },
      { type: 'poll.progress', value: 'ready' },
    ]);
  });

  it('the base poll never finishes by itself: it gives up after maxAttempts, keeping the last answer', async () => {
    vi.useFakeTimers();
    const { actor, calls } = run(['a', 'b'], { ...keepGoing, intervalMs: 10, maxAttempts: 2 }, pollMachine);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls.length).toBe(2);
    expect(actor.getSnapshot().output).toEqual({ status: 'gaveUp', value: 'b', error: null, attempts: 2 });
  });

  it('stopOnError ends at the first failure; poll.stop ends at once and nothing runs after', async () => {
    vi.useFakeTimers();
    const failing = run([new Error('Network Error')], { ...stopOnError, intervalMs: 10 });
    await vi.advanceTimersByTimeAsync(100);
    expect(failing.actor.getSnapshot().output).toMatchObject({ status: 'failed', attempts: 1, value: undefined });
    expect((failing.actor.getSnapshot().output as PollOutput).error).toEqual(new Error('Network Error'));

    const stopped = run([], { ...keepGoing, intervalMs: 10 });
    await vi.advanceTimersByTimeAsync(15);
    stopped.actor.send({ type: 'poll.stop' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(stopped.calls.length).toBe(1);
    expect(stopped.actor.getSnapshot().output).toEqual({ status: 'stopped', value: 'not yet', error: null, attempts: 1 });
  });

  it('an invoked poll sends its progress to the parent that passed itself in the input, and its output', async () => {
    vi.useFakeTimers();
    const child = modelMachine.provide({ actors: { check: fromPromise<string, unknown>(async () => 'ready') } });
    const parent = setup({
      types: { context: {} as { seen: unknown[] }, events: {} as PollProgress },
      actors: { poll: child },
    }).createMachine({
      context: { seen: [] },
      initial: 'polling',
      states: {
        polling: {
          invoke: {
            id: 'poll',
            src: 'poll',
            input: ({ self }) => ({ ...keepGoing, intervalMs: 10, parent: self }),
            onDone: { target: 'done', actions: assign({ seen: ({ context, event }) => [...context.seen, event.output] }) },
          },
          on: { 'poll.progress': { actions: assign({ seen: ({ context, event }) => [...context.seen, event] }) } },
        },
        done: { type: 'final' },
      },
    });
    const actor = createActor(parent).start();
    await vi.advanceTimersByTimeAsync(10);
    expect(actor.getSnapshot().context.seen).toEqual([
      { type: 'poll.progress', value: 'ready' },
      { status: 'finished', value: 'ready', error: null, attempts: 1 },
    ]);
  });
});
