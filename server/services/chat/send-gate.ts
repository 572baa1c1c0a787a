import type { Kysely } from 'kysely';
import type { Database } from '../../db/database';

/**
 * How many sends (or replies ending, or titles being saved) do their database work at once. A burst of 300 sends
 * otherwise runs in lockstep: on SQLite every query resolves at once (the driver is synchronous), so one step of all
 * 300 ran as one unbroken chain of microtasks (up to 0.6 s measured without a return to the event loop); on
 * PostgreSQL all of them queued for the pool's 10 connections, and every other request (health included) waited
 * behind them (p99 3 s). Four at a time keeps the database busy and the queue in front of everyone else short.
 */
export const SEND_GATE_SLOTS = 4;

/**
 * Runs pieces of work a few at a time, and starts at most that many on each turn of the event loop, first come first
 * served. The second limit matters on SQLite: a piece there runs to its end without giving the loop back (every
 * query resolves at once), so a slot freed is free again straight away, and 300 requests read in one turn of the
 * loop would otherwise each start (and finish) theirs in that one turn.
 */
export interface WorkGate {
  /**
   * `urgent`: work that finishes something already under way (a send past its first step, a reply ending) goes
   * before work that starts something new, so a burst's first sends reach their model while later ones wait.
   */
  run<T>(work: () => Promise<T>, urgent?: boolean): Promise<T>;
}

export function createWorkGate(slots: number): WorkGate {
  let busy = 0;
  /** Pieces started on this turn of the loop. */
  let startedThisTurn = 0;
  let nextTurn: NodeJS.Immediate | undefined;
  const urgent: Array<() => void> = [];
  const waiting: Array<() => void> = [];
  const queued = () => urgent.length + waiting.length;
  const canStart = () => busy < slots && startedThisTurn < slots;

  // The next turn (setImmediate: after the loop has read sockets, other requests and the model's chunks among them)
  // starts with a fresh count and lets the next in line in.
  const turn = () => {
    nextTurn = undefined;
    startedThisTurn = 0;
    while (canStart() && queued() > 0) start((urgent.shift() ?? waiting.shift())!);
  };
  const start = (go: () => void) => {
    busy++;
    startedThisTurn++;
    nextTurn ??= setImmediate(turn);
    go();
  };
  return {
    async run(work, isUrgent = false) {
      // A free slot with nobody waiting is taken at once: a lone send waits for nothing.
      if (canStart() && queued() === 0) start(() => undefined);
      else await new Promise<void>((resolve) => (isUrgent ? urgent : waiting).push(resolve));
      try {
        return await work();
      } finally {
        busy--;
        if (queued() > 0) nextTurn ??= setImmediate(turn);
      }
    },
  };
}

/** One gate per app (its database): several apps in one process (tests) each get their own. */
const gates = new WeakMap<Kysely<Database>, WorkGate>();

export function sendGateFor(db: Kysely<Database>): WorkGate {
  let gate = gates.get(db);
  if (!gate) {
    gate = createWorkGate(SEND_GATE_SLOTS);
    gates.set(db, gate);
  }
  return gate;
}
