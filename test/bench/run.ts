import { execFileSync, execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { measureBurst, printBurst } from './burst';
import { measureClientsQuery, printClientsQuery } from './clients-query';
import { measureCluster, printCluster } from './cluster-load';
import { measureFirstToken, printFirstToken } from './first-token';
import { measureIngest, printIngest } from './ingest';
import { measureLoadStreams, printLoadStreams } from './load-streams';
import { printGoalSummary } from './goal-line';
import { measureLoginJs, printLoginJs } from './login-bundle';
import { measureLandingLighthouse, measureLoginAgainstReference, printLandingLighthouse, printLoginAgainstReference } from './login-lighthouse';
import { buildLoginReference } from './login-reference';
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
// Each goal is printed against a reference measured in the same run, with their ratio and PASS or MISS
// (goal-line.ts), and all of them again at the end.
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
  // `npm run bench -- clients`: the Clients page and Client Usage Analytics at 10,000 clients (PostgreSQL only).
  clients: () => section('Clients at 10,000', async () => printClientsQuery(await measureClientsQuery())),
  // `npm run bench -- ingest` / `retrieval`: documents (issue 9), SQLite and PostgreSQL with a URL.
  ingest: () => section('Document ingestion', async () => printIngest(await measureIngest())),
  retrieval: () => section('Retrieval over 10,000 chunks', async () => printRetrieval(await measureRetrieval())),
  // `npm run bench -- cluster`: two instances behind nginx on PostgreSQL (DATABASE_URL) and Redis (issue 32).
  cluster: () => section('Two instances behind nginx', async () => printCluster(await measureCluster())),
  // `npm run bench -- reply-saves`: how far a streaming reply's saves lag behind its reader (left the server suite).
  'reply-saves': () => section('Reply saves while streaming', async () => printReplySaves(await measureReplySaves())),
};
const onlyServer = args.filter((a): a is keyof typeof serverSections => a in serverSections);
if (onlyServer.length > 0) {
  for (const name of onlyServer) await serverSections[name]();
  printGoalSummary();
  process.exit();
}
const chrome = execSync('bash scripts/find-chromium.sh', { encoding: 'utf8' }).trim();
const staticDir = mkdtempSync(path.join(tmpdir(), 'tanya-bench-dist-'));
removeOnExit(staticDir);
const referenceDir = mkdtempSync(path.join(tmpdir(), 'tanya-bench-login-reference-'));
removeOnExit(referenceDir);
try {
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', staticDir, '--emptyOutDir'], { stdio: 'inherit' });
  process.env.STATIC_DIR = staticDir;

  if (onlyOpen) {
    await section('Open a long conversation', async () => printOpenConversation(await measureOpenConversation(chrome)));
    printGoalSummary();
    process.exit();
  }
  // The login goals' reference: a bare React + router page with the same form and CSS, served by the same server.
  await buildLoginReference(referenceDir, staticDir);
  await section('JS loaded by the login route', async () => {
    const server = await startServer(Number(process.env.BENCH_PORT ?? 8191));
    const referenceServer = await startServer(0, { STATIC_DIR: referenceDir });
    try {
      printLoginJs(await measureLoginJs(server.url, chrome), await measureLoginJs(referenceServer.url, chrome));
    } finally {
      await server.stop();
      await referenceServer.stop();
    }
  });

  // Lighthouse's mobile performance score of /login and of the reference (their own servers: fresh databases and
  // no earlier visits).
  await section('Lighthouse on /login', async () => {
    const lighthouseServer = await startServer(0);
    const referenceServer = await startServer(0, { STATIC_DIR: referenceDir });
    try {
      const login = await measureLoginAgainstReference(lighthouseServer.url, referenceServer.url, chrome);
      printLoginAgainstReference(login);
      // The landing page on the same server, right after: its figures read beside /login's.
      printLandingLighthouse(await measureLandingLighthouse(lighthouseServer.url, chrome), login.app.median.score);
    } finally {
      await lighthouseServer.stop();
      await referenceServer.stop();
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
  printGoalSummary();
} finally {
  rmSync(staticDir, { recursive: true, force: true });
  rmSync(referenceDir, { recursive: true, force: true });
}

/**
 * A section that fails is reported and the ones after it still run; the bench then exits with 1. While it runs, a
 * timer holds the process open: some work awaited here holds nothing open itself (the ingestion's extraction
 * workers are unref'd, so that idle ones never keep a server up, and one still loading its extractors has no timer
 * yet), and with nothing else open Node ended the bench at that await, silently, with exit code 13 (`npm run bench
 * -- ingest` did).
 */
async function section(name: string, run: () => Promise<void>) {
  const keepAlive = setInterval(() => undefined, 60_000);
  try {
    await run();
  } catch (err) {
    console.error(`\n${name}: FAILED\n`, err);
    process.exitCode = 1;
  } finally {
    clearInterval(keepAlive);
  }
}
