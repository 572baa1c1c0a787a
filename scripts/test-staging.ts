import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MachineCoverage } from '../test/e2e/paths/coverage';

// `npm run test:staging`: QA's run of the generated browser paths against a deployment. The base URL and accounts come
// from the environment or a `.env.staging` file (E2E_BASE_URL, E2E_PASSWORD, and E2E_SUPERUSER_EMAIL,
// E2E_ADMIN_EMAIL, E2E_USER_EMAIL, E2E_NEWHIRE_EMAIL where they differ from the demo's; E2E_MAIL_API for mailed links). It prints, per machine, the
// states and transitions the paths reach against the deployment beside the local run's figures and the 90% goal,
// writes Playwright's HTML report (a trace kept for every failure) to playwright-report-staging/, and the table with
// links to each machine's chart (docs/machines/) to playwright-report-staging/coverage.md; exits 1 on any failure.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPORT_DIR = path.join(ROOT, 'playwright-report-staging');
const GOAL = 0.9;

if (existsSync(path.join(ROOT, '.env.staging'))) process.loadEnvFile(path.join(ROOT, '.env.staging'));
const { E2E_BASE_URL: baseUrl, E2E_PASSWORD: password } = process.env;
if (!baseUrl || !password) {
  console.error('npm run test:staging needs E2E_BASE_URL and E2E_PASSWORD (in the environment or .env.staging); see the README\'s QA section.');
  process.exit(2);
}

function coverage(env: NodeJS.ProcessEnv): MachineCoverage[] {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'test/e2e/paths/coverage.ts'], { cwd: ROOT, env, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`test/e2e/paths/coverage.ts failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as MachineCoverage[];
}

const { E2E_BASE_URL: _omit, ...localEnv } = process.env;
const localRows = coverage(localEnv);
const stagingRows = coverage(process.env);

mkdirSync(REPORT_DIR, { recursive: true });
const resultsFile = path.join(REPORT_DIR, 'results.json');
// Arguments narrow the run as Playwright's do (`npm run test:staging -- test/e2e/paths/form.paths.spec.ts`).
const selection = process.argv.slice(2);
const playwright = spawnSync('npx', ['playwright', 'test', ...(selection.length > 0 ? selection : ['test/e2e/paths']), '--reporter=list,html,json', '--trace=retain-on-failure'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, PLAYWRIGHT_HTML_OUTPUT_DIR: REPORT_DIR, PLAYWRIGHT_HTML_OPEN: 'never', PLAYWRIGHT_JSON_OUTPUT_NAME: resultsFile },
});

interface JsonSuite {
  file?: string;
  suites?: JsonSuite[];
  specs?: Array<{ file: string; tests: Array<{ status: 'expected' | 'unexpected' | 'flaky' | 'skipped' }> }>;
}
/**
 * Failed and skipped paths per spec file. A path that failed reached what it reached but proves nothing, so its
 * machine is not passed; a skipped one (the deployment lacks what it needs, the report says what) reached nothing.
 */
function outcomesBySpec(): Map<string, { failed: number; skipped: number }> {
  const outcomes = new Map<string, { failed: number; skipped: number }>();
  if (!existsSync(resultsFile)) return outcomes;
  const walk = (suite: JsonSuite) => {
    for (const spec of suite.specs ?? []) {
      const entry = outcomes.get(path.basename(spec.file)) ?? { failed: 0, skipped: 0 };
      entry.failed += spec.tests.filter((t) => t.status === 'unexpected').length;
      entry.skipped += spec.tests.filter((t) => t.status === 'skipped').length;
      outcomes.set(path.basename(spec.file), entry);
    }
    suite.suites?.forEach(walk);
  };
  (JSON.parse(readFileSync(resultsFile, 'utf8')) as { suites: JsonSuite[] }).suites.forEach(walk);
  return outcomes;
}
const outcomes = outcomesBySpec();
/** The spec that drives a machine's paths. */
const specOf = (machine: string) => `${machine}.paths.spec.ts`;

const pct = (c: { covered: number; total: number }) => (c.total === 0 ? 100 : (100 * c.covered) / c.total);
const cell = (c: { covered: number; total: number }) => `${c.covered}/${c.total} (${pct(c).toFixed(0)}%)`;
// "Here": what the paths generated for a deployment reach when they pass; a machine with a failed path is not passed.
// The goal is of the transitions a browser can cause or force; those no browser can are listed under the table.
const header = '| Machine | States here | Transitions here | A browser can force: here | Locally | Goal 90% of forceable | Chart |';
const rows = stagingRows.map((s) => {
  const l = localRows.find((r) => r.machine === s.machine)!;
  const chart = `docs/machines/${s.machine}.md`;
  const outcome = outcomes.get(specOf(s.machine));
  const { failed = 0, skipped = 0 } = outcome ?? {};
  const verdict =
    !outcome && !s.localOnly
      ? 'NOT RUN (not in this selection)'
      : failed > 0
      ? `FAILED (${failed} paths)`
      : skipped > 0
        ? `NOT ALL RUN (${skipped} paths skipped, the report says why; the figures count them)`
        : pct(s.forceable) >= GOAL * 100
          ? 'PASS'
          : s.localOnly
            ? `MISS (local only: ${s.localOnly})`
            : 'MISS';
  return `| ${s.machine} | ${cell(s.states)} | ${cell(s.transitions)} | ${cell(s.forceable)} | ${cell(l.forceable)} | ${verdict} | [chart](../${chart}) |`;
});
type Count = { covered: number; total: number };
const sum = (list: MachineCoverage[], of: (r: MachineCoverage) => Count) =>
  list.reduce((acc, r) => ({ covered: acc.covered + of(r).covered, total: acc.total + of(r).total }), { covered: 0, total: 0 });
const totals =
  `Transitions reached against ${baseUrl}: ${cell(sum(stagingRows, (r) => r.transitions))} of all, ` +
  `${cell(sum(stagingRows, (r) => r.forceable))} of those a browser can force; locally ${cell(sum(localRows, (r) => r.forceable))}; ` +
  'goal at least 90% of the forceable for every machine.';
const unforceable = stagingRows
  .filter((r) => r.unforceable.length > 0)
  .flatMap((r) => r.unforceable.map((u) => `- ${r.machine}: ${u.why} (${u.transitions.join('; ')})`));
const notes = `Not counted as forceable (no browser can cause them, each paths model says why):\n${unforceable.join('\n')}`;
const table = [header, '|---|---|---|---|---|---|---|', ...rows].join('\n');
writeFileSync(path.join(REPORT_DIR, 'coverage.md'), `# Generated paths against ${baseUrl}\n\n${table}\n\n${totals}\n\n${notes}\n`);
console.log(`\n${table}\n\n${totals}\n\n${notes}`);
console.log(`Report: ${path.relative(ROOT, REPORT_DIR)}/index.html (npx playwright show-report ${path.relative(ROOT, REPORT_DIR)}); table with chart links: ${path.relative(ROOT, REPORT_DIR)}/coverage.md`);
process.exit(playwright.status === 0 ? 0 : 1);
