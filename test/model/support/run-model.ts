import { afterAll, describe, it } from 'vitest';
import { expect } from './expect';
import { createActor, type Actor, type AnyMachineSnapshot, type AnyStateMachine, type SnapshotFrom } from 'xstate';
import { coverageOf, formatCoverage, generatePaths, planPaths, type ModelPath, type ModelSpec } from './model-paths';

export interface ModelTestSpec<M extends AnyStateMachine> extends ModelSpec<M> {
  name: string;
  /** The machine with fake actors that never settle by themselves: the paths send done/error events. */
  testMachine: () => M;
  /** Assertions on the live actor after each step, keyed by top-level state value. */
  /** `event` is the step's event (null for the initial state); done/error events of actors included. */
  checks: Record<string, (snapshot: SnapshotFrom<M>, event: { type: string } | null) => void>;
  /** Called with each live actor before it starts (e.g. to listen to emitted events). */
  onActor?: (actor: Actor<M>) => void;
  /**
   * A shared machine run with one screen's input (the record editor as the Departments page): the states and
   * transitions that screen never reaches, by the ids coverage prints. They must be exactly these (the machine's
   * own model test covers them); every other state and transition is still required.
   */
  notTakenByThisInput?: { states?: string[]; transitions?: string[] };
}

/**
 * Replays every generated path on a live actor with fake actors, checks each state's invariants after every
 * step, compares with the pure `transition()` replay, and prints coverage (which must be 100%).
 *
 * The generated sets are thousands of paths, and a test each cost more in the runner than the replays themselves
 * (about 19,700 tests, 93% of them paths, took 102 s). So the few paths that together reach every state and
 * transition (`planPaths`) are tests of their own, and the rest replay in one test per machine that names the
 * failing path. Every path still runs, once, with the same checks.
 */
export function runModelTest<M extends AnyStateMachine>(spec: ModelTestSpec<M>) {
  const paths = generatePaths(spec);
  const { coverage, covering } = planPaths(spec.machine, paths);
  const kept = new Set(covering);
  const rest = paths.filter((p) => !kept.has(p));

  const replay = (path: ModelPath<M>) => {
    const machine = spec.testMachine();
    const actor = createActor(machine, { input: path.input });
    spec.onActor?.(actor);
    actor.start();
    // The pure transition() replay's values were kept when the path was generated (model-paths.ts).
    let step = 0;
    const check = (event: { type: string } | null) => {
      const live = actor.getSnapshot() as AnyMachineSnapshot;
      expect(live.value).toEqual(path.values[step]);
      const top = typeof live.value === 'string' ? live.value : Object.keys(live.value as object)[0];
      const stateCheck = spec.checks[top];
      expect(stateCheck, `no check for state ${top}`).toBeTypeOf('function');
      stateCheck(live as SnapshotFrom<M>, event);
    };
    check(null);
    for (const event of path.events) {
      actor.send(event);
      step++;
      check(event);
    }
    actor.stop();
  };

  describe(`${spec.name} (model)`, () => {
    afterAll(() => {
      console.log(formatCoverage(spec.name, coverage, paths.length, covering.length));
    });

    it('covers every state and every transition, and the separate paths alone cover as much', () => {
      expect(coverage.states.missing).toEqual(spec.notTakenByThisInput?.states ?? []);
      expect(coverage.transitions.missing).toEqual(spec.notTakenByThisInput?.transitions ?? []);
      expect(coverageOf(spec.machine, covering)).toEqual(coverage);
    });

    it.each(covering.map((p) => [p.description, p] as const))('%s', (_d, path) => replay(path));

    // One test for thousands of synchronous replays: the per-test default (5 s) is for one path.
    it(`replays the other ${rest.length} generated paths`, { timeout: 600_000 }, () => {
      rest.forEach((path, i) => {
        try {
          replay(path);
        } catch (err) {
          // The runner shows one test: say which path failed, keeping the assertion's diff.
          if (err instanceof Error) {
            err.message = `path ${i + 1} of ${rest.length} (input ${JSON.stringify(path.input)}): ${path.description}\n${err.message}`;
          }
          throw err;
        }
      });
    });
  });
}
