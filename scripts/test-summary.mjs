// Sums the JSON reports of every suite into one closing line: "Total: N passed, M failed".
// Steps that failed without a report (typecheck, lint, build) count as one failure each.
import { existsSync, readFileSync, readdirSync } from 'node:fs';

const failedSteps = process.argv.slice(2);
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
  'e2e (Chromium)': 'playwright.json',
};
for (const step of failedSteps) {
  // A suite whose report counts its failures is already summed; one that failed without a report, or whose
  // report shows no failed test (a crashed setup, a server that never came up), counts once.
  const file = reports[step] && `test-results/${reports[step]}`;
  if (!file || !existsSync(file) || failuresIn(JSON.parse(readFileSync(file, 'utf8'))) === 0) failed += 1;
}
if (failedSteps.length) console.log(`Failed steps: ${failedSteps.join(', ')}`);
console.log(`Total: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
