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
    const replays = replayRoot(spec.machine, input);
    const base = { events: spec.events, filterEvents: spec.filterEvents, input };
    const simpleKey = spec.simpleKey ?? spec.key;
    const plainKey = (s: SnapshotFrom<M>) => simpleKey(s);
    const arrivalKey = (s: SnapshotFrom<M>, e: EventFromLogic<M> | undefined, prev: SnapshotFrom<M> | undefined) =>
      spec.edgeKeys ? `${prev ? spec.key(prev) : ''}|${e?.type ?? ''}|${spec.key(s)}` : `${spec.key(s)}|${e?.type ?? ''}`;
    // The graph library's generics do not line up with AnyStateMachine; the runtime contract is the same.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const model = new TestModel(spec.machine as any, base as any);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const shortest = withoutSubpaths(model.getShortestPaths({ serializeState: arrivalKey as any, allowDuplicatePaths: true }));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const simple = withoutSubpaths(model.getSimplePaths({ serializeState: plainKey as any, allowDuplicatePaths: true }));
    const planned = [
      ...shortest.map((path) => ({ path, key: spec.key })),
      ...simple.map((path) => ({ path, key: simpleKey })),
    ];
    for (const { path, key } of planned) {
      const steps = path.steps.filter((s) => s.event.type !== 'xstate.init') as Array<{ state: SnapshotFrom<M>; event: EventFromLogic<M> }>;
      const { events, values } = replayablePrefix(spec.machine, replays, steps, key);
      const id = JSON.stringify([input, events]);
      if (seen.has(id)) continue;
      seen.add(id);
      out.push({ input, events, values, description: events.map((e) => e.type).join(' → ') || '(initial)' });
    }
  }
  return out;
}

/**
 * xstate/graph's own deduplication (TestModel's deduplicatePaths) in linear time: the paths longest first (in order
 * among equals), leaving out each whose events (as JSON) begin a longer path or repeat a path kept. Its pairwise
 * comparison was 2.0 of chat-send's 4.0 s of path search; the paths kept are the same, in the same order.
 */
function withoutSubpaths<P extends { steps: Array<{ event: unknown }> }>(paths: P[]): P[] {
  type Node = Map<string, Node>;
  const root: Node = new Map();
  const ends = paths.map((path) => {
    let node = root;
    for (const step of path.steps) {
      const key = JSON.stringify(step.event);
      let next = node.get(key);
      if (!next) {
        next = new Map();
        node.set(key, next);
      }
      node = next;
    }
    return node;
  });
  const longestFirst = paths.map((_, i) => i).sort((a, z) => paths[z].steps.length - paths[a].steps.length);
  const kept = new Set<Node>();
  const out: P[] = [];
  for (const i of longestFirst) {
    if (ends[i].size > 0 || kept.has(ends[i])) continue;
    kept.add(ends[i]);
    out.push(paths[i]);
  }
  return out;
}

/**
 * A pure replay's snapshots by event prefix: paths share most of their prefixes (the shortest paths are a tree), so
 * each prefix is replayed once, not once per path through it. Keyed by the event objects themselves: paths that share
 * a prefix share its events (both generators expand each state once), and `transition()` gives the same snapshot
 * for the same snapshot and event. Replaying every path from the start took 2.4-5.6 s of the largest models' ~10 s
 * of path generation, and the coverage replays (reachOf) as long again.
 */
interface ReplayNode<M extends AnyStateMachine> {
  snapshot: SnapshotFrom<M>;
  next: Map<unknown, ReplayNode<M>>;
}

/** The node after `node` by `event`, made by `make` the first time it is asked for. */
function stepFrom<N extends { next: Map<unknown, N> }>(node: N, event: unknown, make: () => N): N {
  let after = node.next.get(event);
  if (!after) {
    after = make();
    node.next.set(event, after);
  }
  return after;
}

function replayRoot<M extends AnyStateMachine>(machine: M, input: InputFrom<M>): ReplayNode<M> {
  const [snapshot] = initialTransition(machine, input as never) as [SnapshotFrom<M>, unknown];
  return { snapshot, next: new Map() };
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
  root: ReplayNode<M>,
  steps: Array<{ state: SnapshotFrom<M>; event: EventFromLogic<M> }>,
  key: (s: SnapshotFrom<M>) => string,
): { events: EventFromLogic<M>[]; values: unknown[] } {
  let node = root;
  const kept: EventFromLogic<M>[] = [];
  const values: unknown[] = [(node.snapshot as AnyMachineSnapshot).value];
  for (const step of steps) {
    const from = node.snapshot;
    const after = stepFrom(node, step.event, () => {
      const [snapshot] = transition(machine, from, step.event as never) as [SnapshotFrom<M>, unknown];
      return { snapshot, next: new Map() };
    });
    const real = after.snapshot;
    if ((real as AnyMachineSnapshot).status === 'error' || key(real) !== key(step.state)) break;
    kept.push(step.event);
    values.push((real as AnyMachineSnapshot).value);
    node = after;
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

/** What one step of a replay reached (states entered, transitions taken), and the snapshot after it; by prefix. */
interface ReachNode<M extends AnyStateMachine> {
  snapshot: SnapshotFrom<M>;
  states: string[];
  transitions: AnyTransitionDefinition[];
  next: Map<unknown, ReachNode<M>>;
}

/** The replays of one coverage computation, by input and then by event prefix (see ReplayNode). */
type ReachCache<M extends AnyStateMachine> = Map<unknown, ReachNode<M>>;

/** Marks the states each microstep enters and the transition that took it there. */
function markMicrosteps<M extends AnyStateMachine>(
  machine: M,
  steps: Array<[SnapshotFrom<M>, unknown]>,
  prev: SnapshotFrom<M>,
  first: { type: string } | null,
  into: Reach,
) {
  let before = prev;
  steps.forEach(([after], i) => {
    // The first microstep is the event's transition; the rest (and the initial ones after the root's entry) are
    // `always` transitions.
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
        into.transitions.add(t);
        break;
      }
    }
    (after as AnyMachineSnapshot)._nodes.forEach((n: AnyStateNode) => into.states.add(n.id));
    before = after;
  });
}

function reachNode<M extends AnyStateMachine>(snapshot: SnapshotFrom<M>, reach: Reach): ReachNode<M> {
  return { snapshot, states: [...reach.states], transitions: [...reach.transitions], next: new Map() };
}

/** The machine's start for `input`: the root's entry and the `always` transitions after it. */
function initialReach<M extends AnyStateMachine>(machine: M, input: InputFrom<M>): ReachNode<M> {
  const initial = getInitialMicrosteps(machine, input as never) as Array<[SnapshotFrom<M>, unknown]>;
  const reach: Reach = { states: new Set(), transitions: new Set() };
  (initial[0][0] as AnyMachineSnapshot)._nodes.forEach((n: AnyStateNode) => reach.states.add(n.id));
  markMicrosteps(machine, initial.slice(1), initial[0][0], null, reach);
  const [snapshot] = initialTransition(machine, input as never) as [SnapshotFrom<M>, unknown];
  return reachNode(snapshot, reach);
}

function reachOf<M extends AnyStateMachine>(
  machine: M,
  path: ModelPath<M>,
  cache: ReachCache<M>,
  into: Reach = { states: new Set(), transitions: new Set() },
): Reach {
  const add = (node: ReachNode<M>) => {
    node.states.forEach((id) => into.states.add(id));
    node.transitions.forEach((t) => into.transitions.add(t));
  };
  let node = cache.get(path.input) ?? initialReach(machine, path.input);
  cache.set(path.input, node);
  add(node);
  for (const event of path.events) {
    const from = node.snapshot;
    const after = stepFrom(node, event, () => {
      const micro = getMicrosteps(machine, from, event as never) as Array<[SnapshotFrom<M>, unknown]>;
      const reach: Reach = { states: new Set(), transitions: new Set() };
      markMicrosteps(machine, micro, from, event, reach);
      return reachNode(micro.length ? micro[micro.length - 1][0] : from, reach);
    });
    add(after);
    node = after;
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
  const cache: ReachCache<M> = new Map();
  for (const path of paths) reachOf(machine, path, cache, reach);
  return coverageFrom(machine, reach);
}

/**
 * The coverage of all `paths` and the fewest of them (greedily: most states and transitions not yet reached first,
 * the shorter on a tie) that together reach every state and transition the whole set reaches, from one replay of
 * each path. Each covering path is a test of its own, so a failure names a state or transition; the whole set is
 * still replayed (see run-model.ts), so no path is dropped.
 */
export function planPaths<M extends AnyStateMachine>(
  machine: M,
  paths: ModelPath<M>[],
): { coverage: Coverage; covering: ModelPath<M>[]; picked: ModelPath<M>[] } {
  const all: Reach = { states: new Set(), transitions: new Set() };
  const cache: ReachCache<M> = new Map();
  const candidates = paths.map((path, index) => {
    const r = reachOf(machine, path, cache);
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
  // `covering` in the generated order; `picked` in the order chosen, which the browser suite chains its paths in.
  const picked = kept.map((c) => c.path);
  return { coverage: coverageFrom(machine, all), covering: kept.sort((a, b) => a.index - b.index).map((c) => c.path), picked };
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
