// Sums the JSON reports of every suite into one closing line: "Total: N passed, M failed", followed by the run's wall
// time (test-results/wall-seconds.txt) and the steps' times added up; above it, each step's time
// (test-results/step-times.txt) and the machine's busy CPU time (test-results/cpu-ticks.txt), all written by
// scripts/test.sh.
// Steps that failed without a report (typecheck, lint, build) count as one failure each.
import { existsSync, readFileSync, readdirSync } from 'node:fs';

const failedSteps = process.argv.slice(2);
/** Issue 29: a fresh clone's `bash .ci/run` (npm ci included) in at most this long on the CI machine. */
const GOAL_MINUTES = 12;
const failuresIn = (report) => (report.stats ? report.stats.unexpected : (report.numFailedTests ?? 0));
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of readdirSync('test-results').filter((f) => f.endsWith('.json'))) {
  const report = JSON.parse(readFileSync(`test-results/${file}`, 'utf8'));
  if (report.stats && 'expected' in report.stats) {
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += failuresIn(report);
    skipped += report.stats.skipped;
  } else {
    passed += report.numPassedTests ?? 0;
    failed += failuresIn(report);
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  }
}
const reports = {
  'unit+model': 'vitest-unit.json',
  'server (SQLite)': 'vitest-server-sqlite.json',
  'server (PostgreSQL)': 'vitest-server-postgres.json',
  'cluster (2 instances)': 'vitest-cluster.json',
  'e2e (Chromium)': 'playwright.json',
};
for (const step of failedSteps) {
  // A suite whose report counts its failures is already summed; one that failed without a report, or whose
  // report shows no failed test (a crashed setup, a server that never came up), counts once.
  const file = reports[step] && `test-results/${reports[step]}`;
  if (!file || !existsSync(file) || failuresIn(JSON.parse(readFileSync(file, 'utf8'))) === 0) failed += 1;
}
const clock = (seconds) => (seconds < 60 ? `${seconds.toFixed(1)} s` : `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`);
const times = existsSync('test-results/step-times.txt')
  ? readFileSync('test-results/step-times.txt', 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [name, seconds, status] = line.split('\t');
        return { name, seconds: Number(seconds), status };
      })
  : [];
// CI shows only the tail of this output, so the failed tests are named here, each with its error's first line.
// The terminal's colour codes (ESC [ ... m) out: built from a string, as a regex literal with ESC fails the lint.
const colours = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const firstLine = (text) => String(text ?? '').replace(colours, '').split('\n').find((l) => l.trim()) ?? '';
const failures = [];
for (const [step, file] of Object.entries(reports)) {
  if (!existsSync(`test-results/${file}`)) continue;
  const report = JSON.parse(readFileSync(`test-results/${file}`, 'utf8'));
  for (const result of report.testResults ?? []) {
    for (const test of result.assertionResults ?? []) {
      if (test.status === 'failed') failures.push(`${step}: ${test.fullName} — ${firstLine(test.failureMessages?.[0])}`);
    }
    if (result.status === 'failed' && !(result.assertionResults ?? []).some((t) => t.status === 'failed')) {
      failures.push(`${step}: ${result.name} — ${firstLine(result.message)}`);
    }
  }
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.at(-1)?.error?.message;
        failures.push(`${step}: ${[...titles, spec.title].join(' › ')} — ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, [suite.title]);
}
if (failures.length) {
  console.log('Failed tests:');
  for (const line of failures) console.log(`  ${line.slice(0, 400)}`);
}
const width = Math.max(0, ...times.map((t) => t.name.length));
for (const t of times) console.log(`  ${t.name.padEnd(width)}  ${clock(t.seconds).padStart(12)}${t.status === 'ok' ? '' : `  (${t.status})`}`);
const allSeconds = times.reduce((sum, t) => sum + t.seconds, 0);
// Steps of a group run beside each other (scripts/test.sh), so the run's wall time is less than their sum.
const wallSeconds = existsSync('test-results/wall-seconds.txt') ? Number(readFileSync('test-results/wall-seconds.txt', 'utf8')) : allSeconds;
// The machine's busy CPU time over the run (scripts/test.sh), whatever ran on it: the work, where the wall time
// also says how fast and how loaded the machine was.
if (existsSync('test-results/cpu-ticks.txt')) {
  const [ticks, perSecond, cores] = readFileSync('test-results/cpu-ticks.txt', 'utf8').trim().split(' ').map(Number);
  if (ticks > 0 && perSecond > 0 && cores > 0) {
    const cpuSeconds = ticks / perSecond;
    console.log(`CPU: ${Math.round(cpuSeconds)} CPU-seconds busy over ${clock(wallSeconds)}, ${Math.round((100 * cpuSeconds) / (wallSeconds * cores))}% of ${cores} cores`);
  }
}
if (failedSteps.length) console.log(`Failed steps: ${failedSteps.join(', ')}`);
console.log(
  `Total: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}` +
    (times.length
      ? `; ${clock(wallSeconds)} (goal: ${GOAL_MINUTES} min for the whole CI run), ${times.length} steps that took ${clock(allSeconds)} added up ` +
        `(${times.map((t) => `${t.name} ${clock(t.seconds)}`).join(', ')})`
      : ''),
);
