import { afterAll, describe, expect, it } from 'vitest';
import { createActor, type Actor, type AnyMachineSnapshot, initialTransition, transition, type AnyStateMachine, type SnapshotFrom } from 'xstate';
import { coverageOf, formatCoverage, generatePaths, type ModelSpec } from './model-paths';

export interface ModelTestSpec<M extends AnyStateMachine> extends ModelSpec<M> {
  name: string;
  /** The machine with fake actors that never settle by themselves: the paths send done/error events. */
  testMachine: () => M;
  /** Assertions on the live actor after each step, keyed by top-level state value. */
  /** `event` is the step's event (null for the initial state); done/error events of actors included. */
  checks: Record<string, (snapshot: SnapshotFrom<M>, event: { type: string } | null) => void>;
  /** Called with each live actor before it starts (e.g. to listen to emitted events). */
  onActor?: (actor: Actor<M>) => void;
}

/**
 * Replays every generated path on a live actor with fake actors, checks each state's invariants after every
 * step, compares with the pure `transition()` replay, and prints coverage (which must be 100%).
 */
export function runModelTest<M extends AnyStateMachine>(spec: ModelTestSpec<M>) {
  const paths = generatePaths(spec);
  const coverage = coverageOf(spec.machine, paths);

  describe(`${spec.name} (model)`, () => {
    afterAll(() => {
      console.log(formatCoverage(spec.name, coverage, paths.length));
    });

    it('covers every state and every transition', () => {
      expect(coverage.states.missing).toEqual([]);
      expect(coverage.transitions.missing).toEqual([]);
    });

    it.each(paths.map((p) => [p.description, p] as const))('%s', (_d, path) => {
      const machine = spec.testMachine();
      const actor = createActor(machine, { input: path.input });
      spec.onActor?.(actor);
      actor.start();
      let [expected] = initialTransition(spec.machine, path.input as never) as [SnapshotFrom<M>, unknown];
      const check = (event: { type: string } | null) => {
        const live = actor.getSnapshot() as AnyMachineSnapshot;
        expect(live.value).toEqual((expected as AnyMachineSnapshot).value);
        const top = typeof live.value === 'string' ? live.value : Object.keys(live.value as object)[0];
        const stateCheck = spec.checks[top];
        expect(stateCheck, `no check for state ${top}`).toBeTypeOf('function');
        stateCheck(live as SnapshotFrom<M>, event);
      };
      check(null);
      for (const event of path.events) {
        actor.send(event);
        [expected] = transition(spec.machine, expected, event as never) as [SnapshotFrom<M>, unknown];
        check(event);
      }
      actor.stop();
    });
  });
}
