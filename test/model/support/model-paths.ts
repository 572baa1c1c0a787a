import type { AnyMachineSnapshot, AnyStateMachine, AnyStateNode, EventFromLogic, InputFrom, SnapshotFrom, AnyTransitionDefinition } from 'xstate';
import { getMicrosteps, initialTransition, getInitialMicrosteps, transition } from 'xstate';
import { TestModel } from 'xstate/graph';

/**
 * Generated state paths for a machine, shared by every model test (and by the e2e path runner).
 * Two generators together give full transition coverage (see ARCHITECTURE.md "Model-based testing"):
 * shortest paths keyed by state + arrival event keep self-loops and guard-false events; simple paths with
 * the plain key reach states through every distinct route.
 */
export interface ModelSpec<M extends AnyStateMachine> {
  machine: M;
  /** One traversal per input (a machine whose initial state depends on input needs several). */
  inputs: InputFrom<M>[];
  /** Events to try in a state; payload events must be listed here or guards read undefined. */
  events: (snapshot: SnapshotFrom<M>) => EventFromLogic<M>[];
  /** What identifies a state: value plus only the context that guards read (growing context => endless paths). */
  key: (snapshot: SnapshotFrom<M>) => string;
  /**
   * The key for the simple-paths generator (default: `key`). Simple paths grow exponentially with the number of
   * distinct keys (every simple route to every key): with a rich `key` pass a coarser one here (e.g. the state value);
   * the arrival-aware shortest paths keep using `key`.
   */
  simpleKey?: (snapshot: SnapshotFrom<M>) => string;
  /**
   * Key the shortest paths by edge (previous key, event, key) instead of by arrival (key, event): one path per
   * abstract edge. Needed when one event reaches the same key from two states (e.g. `refresh` from idle and from
   * networkError both arrive in refreshing): an arrival key keeps only one of them. Default false.
   */
  edgeKeys?: boolean;
  /** Events never generated (e.g. faults that cannot be forced on a real deployment). */
  filterEvents?: (snapshot: SnapshotFrom<M>, event: EventFromLogic<M>) => boolean;
}

export interface ModelPath<M extends AnyStateMachine> {
  input: InputFrom<M>;
  events: EventFromLogic<M>[];
  description: string;
  /**
   * The state value after each event, from the pure `transition()` replay that kept the path (replayablePrefix):
   * the model test compares the live actor with these instead of running the same pure replay again.
   */
  values: unknown[];
}

export function generatePaths<M extends AnyStateMachine>(spec: ModelSpec<M>): ModelPath<M>[] {
  const seen = new Set<string>();
  const out: ModelPath<M>[] = [];
  for (const input of spec.inputs) {
    const base = { events: spec.events, filterEvents: spec.filterEvents, input };
    const simpleKey = spec.simpleKey ?? spec.key;
    const plainKey = (s: SnapshotFrom<M>) => simpleKey(s);
    const arrivalKey = (s: SnapshotFrom<M>, e: EventFromLogic<M> | undefined, prev: SnapshotFrom<M> | undefined) =>
      spec.edgeKeys ? `${prev ? spec.key(prev) : ''}|${e?.type ?? ''}|${spec.key(s)}` : `${spec.key(s)}|${e?.type ?? ''}`;
    // The graph library's generics do not line up with AnyStateMachine; the runtime contract is the same.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const model = new TestModel(spec.machine as any, base as any);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const shortest = model.getShortestPaths({ serializeState: arrivalKey as any });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const simple = model.getSimplePaths({ serializeState: plainKey as any });
    const planned = [
      ...shortest.map((path) => ({ path, key: spec.key })),
      ...simple.map((path) => ({ path, key: simpleKey })),
    ];
    for (const { path, key } of planned) {
      const steps = path.steps.filter((s) => s.event.type !== 'xstate.init') as Array<{ state: SnapshotFrom<M>; event: EventFromLogic<M> }>;
      const { events, values } = replayablePrefix(spec.machine, input, steps, key);
      const id = JSON.stringify([input, events]);
      if (seen.has(id)) continue;
      seen.add(id);
      out.push({ input, events, values, description: events.map((e) => e.type).join(' → ') || '(initial)' });
    }
  }
  return out;
}

/**
 * The generators keep one snapshot per key, so a path planned through a key's stored snapshot can go elsewhere
 * when replayed from the real start (context the key leaves out decides a guard). Replay with the pure
 * `transition()` and keep the events up to the first step whose real snapshot has another key than planned (or
 * errored, e.g. an `xstate.error.actor.*` event that the real state does not handle): the rest would test a
 * route the plan never meant. Coverage is measured on what is kept.
 */
function replayablePrefix<M extends AnyStateMachine>(
  machine: M,
  input: InputFrom<M>,
  steps: Array<{ state: SnapshotFrom<M>; event: EventFromLogic<M> }>,
  key: (s: SnapshotFrom<M>) => string,
): { events: EventFromLogic<M>[]; values: unknown[] } {
  let [real] = initialTransition(machine, input as never) as [SnapshotFrom<M>, unknown];
  const kept: EventFromLogic<M>[] = [];
  const values: unknown[] = [(real as AnyMachineSnapshot).value];
  for (const step of steps) {
    [real] = transition(machine, real, step.event as never) as [SnapshotFrom<M>, unknown];
    if ((real as AnyMachineSnapshot).status === 'error' || key(real) !== key(step.state)) break;
    kept.push(step.event);
    values.push((real as AnyMachineSnapshot).value);
  }
  return { events: kept, values };
}

function allStateNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states as Record<string, AnyStateNode>).flatMap(allStateNodes)];
}

function transitionsOf(node: AnyStateNode): AnyTransitionDefinition[] {
  return [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
}

const edgeId = (t: AnyTransitionDefinition, i: number) =>
  `${t.source.id} --${t.eventType || 'always'}#${i}--> ${(t.target ?? []).map((n: AnyStateNode) => n.id).join(',') || '(self)'}`;

/** Transitions a path set leaves out on purpose, and why (as the coverage reports print them). */
export interface LeftOut {
  why: string;
  transitions: string[];
}

export interface Coverage {
  states: { covered: number; total: number; missing: string[] };
  transitions: { covered: number; total: number; missing: string[] };
}

/** The states a path visits and the transitions it takes, replayed with the pure transition functions. */
interface Reach {
  states: Set<string>;
  transitions: Set<AnyTransitionDefinition>;
}

function reachOf<M extends AnyStateMachine>(machine: M, path: ModelPath<M>, into: Reach = { states: new Set(), transitions: new Set() }): Reach {
  const visited = into.states;
  const taken = into.transitions;
  const visit = (s: SnapshotFrom<M>) => (s as AnyMachineSnapshot)._nodes.forEach((n: AnyStateNode) => visited.add(n.id));
  const markMicrosteps = (steps: Array<[SnapshotFrom<M>, unknown]>, prev: SnapshotFrom<M> | null, first: { type: string } | null) => {
    let before = prev;
    steps.forEach(([after], i) => {
      if (before) {
        const active = new Set((before as AnyMachineSnapshot)._nodes as AnyStateNode[]);
        const afterIds = new Set(((after as AnyMachineSnapshot)._nodes as AnyStateNode[]).map((n) => n.id));
        const type = i === 0 && first ? first.type : '';
        const candidates =
          i === 0 && first
            ? (machine.getTransitionData(before, first as never) as AnyTransitionDefinition[])
            : [...active].flatMap((n) => (n.always ?? []) as AnyTransitionDefinition[]);
        for (const t of candidates) {
          if (type && t.eventType !== type && t.eventType !== '*') continue;
          const targets = (t.target ?? []) as AnyStateNode[];
          if (targets.every((n) => afterIds.has(n.id))) {
            taken.add(t);
            break;
          }
        }
      } else {
        // Initial microsteps after the root entry are `always` transitions.
      }
      visit(after);
      before = after;
    });
  };

  const initial = getInitialMicrosteps(machine, path.input as never) as Array<[SnapshotFrom<M>, unknown]>;
  visit(initial[0][0]);
  markMicrosteps(initial.slice(1), initial[0][0], null);
  let [snapshot] = initialTransition(machine, path.input as never) as [SnapshotFrom<M>, unknown];
  for (const event of path.events) {
    const micro = getMicrosteps(machine, snapshot, event as never) as Array<[SnapshotFrom<M>, unknown]>;
    markMicrosteps(micro, snapshot, event);
    if (micro.length) snapshot = micro[micro.length - 1][0];
  }
  return into;
}

/** The states and transitions of the machine, and which of them `reach` misses. */
function coverageFrom<M extends AnyStateMachine>(machine: M, reach: Reach): Coverage {
  const nodes = allStateNodes(machine.root).filter((n) => n !== machine.root);
  const edges = new Map<AnyTransitionDefinition, string>();
  for (const n of allStateNodes(machine.root)) transitionsOf(n).forEach((t, i) => edges.set(t, edgeId(t, i)));
  const missingStates = nodes.filter((n) => !reach.states.has(n.id)).map((n) => n.id);
  const missingEdges = [...edges].filter(([t]) => !reach.transitions.has(t)).map(([, id]) => id);
  return {
    states: { covered: nodes.length - missingStates.length, total: nodes.length, missing: missingStates },
    transitions: { covered: edges.size - missingEdges.length, total: edges.size, missing: missingEdges },
  };
}

/** State and transition coverage of the paths, replayed with the pure transition functions. */
export function coverageOf<M extends AnyStateMachine>(machine: M, paths: ModelPath<M>[]): Coverage {
  const reach: Reach = { states: new Set(), transitions: new Set() };
  for (const path of paths) reachOf(machine, path, reach);
  return coverageFrom(machine, reach);
}

/**
 * The coverage of all `paths` and the fewest of them (greedily: most states and transitions not yet reached first,
 * the shorter on a tie) that together reach every state and transition the whole set reaches, from one replay of
 * each path. Each covering path is a test of its own, so a failure names a state or transition; the whole set is
 * still replayed (see run-model.ts), so no path is dropped.
 */
export function planPaths<M extends AnyStateMachine>(machine: M, paths: ModelPath<M>[]): { coverage: Coverage; covering: ModelPath<M>[] } {
  const all: Reach = { states: new Set(), transitions: new Set() };
  const candidates = paths.map((path, index) => {
    const r = reachOf(machine, path);
    r.states.forEach((id) => all.states.add(id));
    r.transitions.forEach((t) => all.transitions.add(t));
    return { path, index, items: [...[...r.states].map((id) => `s:${id}`), ...r.transitions] as Array<string | AnyTransitionDefinition> };
  });
  const reached = new Set<string | AnyTransitionDefinition>();
  const kept: Array<(typeof candidates)[number]> = [];
  for (;;) {
    let best: (typeof candidates)[number] | undefined;
    let bestGain = 0;
    for (const c of candidates) {
      let gain = 0;
      for (const item of c.items) if (!reached.has(item)) gain++;
      if (gain > bestGain || (gain === bestGain && gain > 0 && best && c.path.events.length < best.path.events.length)) {
        best = c;
        bestGain = gain;
      }
    }
    if (!best) break;
    kept.push(best);
    best.items.forEach((item) => reached.add(item));
  }
  return { coverage: coverageFrom(machine, all), covering: kept.sort((a, b) => a.index - b.index).map((c) => c.path) };
}

/** `covering`: how many of the paths run as tests of their own (run-model.ts); the e2e runners leave it out. */
export function formatCoverage(name: string, c: Coverage, pathCount: number, covering?: number): string {
  const pct = (a: number, b: number) => (b === 0 ? 100 : Math.round((a / b) * 1000) / 10);
  const lines = [
    `[model] ${name}: ${pathCount} paths${covering === undefined ? '' : ` (${covering} covering every state and transition)`}; states ${c.states.covered}/${c.states.total} (${pct(c.states.covered, c.states.total)}%); ` +
      `transitions ${c.transitions.covered}/${c.transitions.total} (${pct(c.transitions.covered, c.transitions.total)}%)`,
  ];
  if (c.states.missing.length) lines.push(`  missing states: ${c.states.missing.join(', ')}`);
  if (c.transitions.missing.length) lines.push(`  missing transitions: ${c.transitions.missing.join('; ')}`);
  return lines.join('\n');
}
