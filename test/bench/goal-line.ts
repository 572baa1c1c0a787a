// Issue 29: fixed figures held on one machine and not on the next (the same kind of machine measured 2–3.5x the
// notes' browser figures on another day). So each goal that can be is stated against a reference measured in the
// same run, on the same machine under the same load, and both are printed with their ratio. A goal line reads:
//   GOAL <what>: <measured> vs <reference> — ratio <r> (goal <bound>) PASS | MISS
// The ratio is measured / reference; the goal bounds it (or, for an absolute goal, the measured value itself).
// The bench still never fails on a goal: these are numbers to read, PASS/MISS says which side of the goal they fell.

export interface GoalResult {
  /** What the goal is about, e.g. "/login Lighthouse TBT". */
  what: string;
  measured: string;
  reference: string;
  /** measured / reference (NaN when the reference is 0 or missing). */
  ratio: number;
  /** The goal as a reader checks it, e.g. "ratio <= 1.2" or "<= 140 KB". */
  goal: string;
  pass: boolean;
}

const results: GoalResult[] = [];

/** measured / reference, NaN when there is no usable reference. */
export function ratioOf(measured: number, reference: number): number {
  return reference > 0 && Number.isFinite(reference) ? measured / reference : Number.NaN;
}

/** Prints one goal line and keeps it for the summary at the end of the run. */
export function reportGoal(result: GoalResult): void {
  results.push(result);
  console.log(`  ${goalLine(result)}`);
}

export function goalLine({ what, measured, reference, ratio, goal, pass }: GoalResult): string {
  // Two significant digits below 0.1 (the streaming render's is about 0.002), else two decimals.
  const r = !Number.isFinite(ratio) ? 'n/a' : ratio < 0.1 ? ratio.toPrecision(2) : ratio.toFixed(2);
  return `GOAL ${what}: ${measured} vs ${reference} — ratio ${r} (goal ${goal}) ${pass ? 'PASS' : 'MISS'}`;
}

/** Every goal reported so far in this run, one line each (printed at the end of `npm run bench`). */
export function printGoalSummary(): void {
  if (results.length === 0) return;
  const passed = results.filter((r) => r.pass).length;
  console.log(`\nGoals, each against a reference measured in this run (${passed} of ${results.length} PASS):`);
  for (const r of results) console.log(`  ${goalLine(r)}`);
}
