import { execFileSync, execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { measureBurst, printBurst } from './burst';
import { measureFirstToken, printFirstToken } from './first-token';
import { measureIngest, printIngest } from './ingest';
import { measureLoadStreams, printLoadStreams } from './load-streams';
import { LOGIN_JS_BUDGET_KB, measureLoginJs } from './login-bundle';
import { measureLoginLighthouse, printLoginLighthouse } from './login-lighthouse';
import { measureOpenConversation, printOpenConversation } from './open-conversation';
import { measureRenderStream, printRenderStream } from './render-stream';
import { measureReplySaves, printReplySaves } from './reply-saves';
import { measureReportQuery, printReportQuery } from './report-query';
import { measureRetrieval, printRetrieval } from './retrieval';
import { removeOnExit, startServer } from './server-process';

// `npm run bench`: numbers, not pass/fail timings. Builds the SPA first: a stale dist/ would measure old code.
// The build goes to a directory of its own, which every bench server serves (STATIC_DIR is passed on to them):
// a build of dist/ running meanwhile (tests, another checkout user) can then neither break nor change what
// is measured, and the bench leaves dist/ alone.
// `npm run bench -- login` runs only the first-paint figures (login-route JS and Lighthouse on /login).
// `npm run bench -- first-token load` runs only the named server sections (no SPA build, no browser).
// `npm run bench -- reports` runs only the usage reports over 1,000,000 rows (SQLite, and PostgreSQL with a URL).
const args = process.argv.slice(2);
const onlyLogin = args.includes('login');
// `npm run bench -- open` runs only the opening of a 1,000-message conversation (with the SPA build it needs).
const onlyOpen = args.includes('open');
const serverSections = {
  'first-token': () => section('Time to first token', async () => printFirstToken(await measureFirstToken())),
  load: () => section('Load: concurrent streams', async () => printLoadStreams(await measureLoadStreams())),
  // `npm run bench -- burst`: 300 sends at once, health timed meanwhile (issue 27); SQLite, and PostgreSQL with a URL.
  burst: () => section('Burst of sends', async () => printBurst(await measureBurst())),
  reports: () => section('Usage reports on 1,000,000 rows', async () => printReportQuery(await measureReportQuery())),
  // `npm run bench -- ingest` / `retrieval`: documents (issue 9), SQLite and PostgreSQL with a URL.
  ingest: () => section('Document ingestion', async () => printIngest(await measureIngest())),
  retrieval: () => section('Retrieval over 10,000 chunks', async () => printRetrieval(await measureRetrieval())),
  // `npm run bench -- reply-saves`: how far a streaming reply's saves lag behind its reader (left the server suite).
  'reply-saves': () => section('Reply saves while streaming', async () => printReplySaves(await measureReplySaves())),
};
const onlyServer = args.filter((a): a is keyof typeof serverSections => a in serverSections);
if (onlyServer.length > 0) {
  for (const name of onlyServer) await serverSections[name]();
  process.exit();
}
const chrome = execSync('bash scripts/find-chromium.sh', { encoding: 'utf8' }).trim();
const staticDir = mkdtempSync(path.join(tmpdir(), 'tanya-bench-dist-'));
removeOnExit(staticDir);
try {
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', staticDir, '--emptyOutDir'], { stdio: 'inherit' });
  process.env.STATIC_DIR = staticDir;

  if (onlyOpen) {
    await section('Open a long conversation', async () => printOpenConversation(await measureOpenConversation(chrome)));
    process.exit();
  }
  const server = await startServer(Number(process.env.BENCH_PORT ?? 8191));
  try {
    const login = await measureLoginJs(server.url, chrome);
    console.log('\nJS loaded by the login route (gzip, level 9):');
    for (const s of login.scripts) console.log(`  ${(s.gzip / 1024).toFixed(1).padStart(7)} KB  ${s.url}  (${(s.raw / 1024).toFixed(1)} KB raw)`);
    console.log(`  ${login.totalGzipKb.toFixed(1).padStart(7)} KB  total — goal at most ${LOGIN_JS_BUDGET_KB} KB`);
  } finally {
    await server.stop();
  }

  // Lighthouse's mobile performance score of /login (its own server: a fresh database and no earlier visits).
  await section('Lighthouse on /login', async () => {
    const lighthouseServer = await startServer(0);
    try {
      printLoginLighthouse(await measureLoginLighthouse(lighthouseServer.url, chrome));
    } finally {
      await lighthouseServer.stop();
    }
  });
  if (!onlyLogin) {
    // Streaming render of the assistant markdown renderer (its own bench page, no server needed).
    printRenderStream(await measureRenderStream(chrome));

    // Opening a 1,000-message conversation in the browser (its own server, seeded database).
    await section('Open a long conversation', async () => printOpenConversation(await measureOpenConversation(chrome)));

    // Server-added time to first token, against a scripted OpenAI-compatible model (its own server).
    await serverSections['first-token']();

    // 1,000 concurrent streams on one server process: health latency and memory per stream (its own server).
    await serverSections.load();

    // 300 sends at once on one server process: health latency during the burst (its own servers).
    await serverSections.burst();
  }
} finally {
  rmSync(staticDir, { recursive: true, force: true });
}

/** A section that fails is reported and the ones after it still run; the bench then exits with 1. */
async function section(name: string, run: () => Promise<void>) {
  try {
    await run();
  } catch (err) {
    console.error(`\n${name}: FAILED\n`, err);
    process.exitCode = 1;
  }
}
