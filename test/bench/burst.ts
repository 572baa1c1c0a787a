import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadConfig } from '../../server/config';
import { createDb } from '../../server/db/create-db';
import { migrateToLatest } from '../../server/db/migrate';
import { insertUser } from '../../server/db/repositories/users';
import { seedDemoData } from '../../server/seed';
import { freshDatabase } from './bench-database';
import { ratioOf, reportGoal } from './goal-line';
import type { BurstSendResult, SenderCommand, SenderReport } from './burst-sender';
import { benchPgUrl } from './ingest-context';
import { BENCH_DEMO_PASSWORD, benchSignIn, NO_BACKUP_MODEL_ENV, removeOnExit, startServer } from './server-process';

// A burst of sends (issue 27): SENDS people press send at the same moment, each starting a new chat, on one
// server process, while GET /api/v1/health is asked every HEALTH_EVERY_MS. A server whose event loop is blocked
// by the sends' own work (prompts, token counts, first saves, title jobs) answers health late. Health is timed
// first on the idle server, then from the burst's first request until its last reply has ended, in the same run.
//
// The bench's own work must not be what is measured: the 300 streams are opened and read (and the scripted model
// served) by burst-sender.ts in a process of its own; this process only sends the probes and times them, and its
// own event-loop delay is reported beside them (it must stay far below the figures it qualifies).
//
// The sends are spread over PEOPLE people (SENDS / PEOPLE each, under the per-person limit of 30 a minute, which
// is left at its default): each of them is a copy of the demo user (same organisation, department and password),
// added to the database before the server starts.

export const SENDS = 300;
export const PEOPLE = 20;
export const HEALTH_P99_GOAL_MS = 100;
const HEALTH_EVERY_MS = 10;
const IDLE_MS = 3_000;
/** Sends before the measurement (by a person of their own), so the server's code paths are warm, as in service. */
const WARMUP_SENDS = 20;
/** The offline responder's pause between words: a reply streams for about 5 s. */
const OFFLINE_TOKEN_DELAY_MS = 40;
/** The scripted model's own time to first token (ms), and its pause between tokens (50 tokens a reply). */
const MODEL_FIRST_TOKEN_MS = 200;
const MODEL_TOKEN_INTERVAL_MS = 40;

type Responder = 'offline' | 'scripted';

interface Probe {
  at: number;
  ms: number;
}

const quantile = (values: number[], q: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};

function request(agent: http.Agent, url: URL, method = 'GET'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent, method }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A migrated database with the demo data and PEOPLE + 1 more people (the last one warms up), all signing in with BENCH_DEMO_PASSWORD. */
async function prepareData(dataDir: string, databaseUrl: string): Promise<string[]> {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const db = createDb(config);
  try {
    await migrateToLatest(db);
    await seedDemoData(db, { password: BENCH_DEMO_PASSWORD, publicUrl: config.publicUrl });
    const model = await db.selectFrom('users').selectAll().where('email', '=', 'user@demo.local').executeTakeFirstOrThrow();
    const emails: string[] = [];
    for (let i = 0; i <= PEOPLE; i++) {
      const email = `burst${i}@demo.local`;
      await insertUser(db, {
        email,
        name: `Burst Person ${i}`,
        role: 'user',
        client_id: model.client_id,
        department_id: model.department_id,
        unit_id: model.unit_id,
        password_hash: model.password_hash,
        status: 'active',
        verified: true,
      });
      emails.push(email);
    }
    return emails;
  } finally {
    await db.destroy();
  }
}

/** The load process (burst-sender.ts) and a way to ask it something and wait for its answer. */
function startSender() {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const child: ChildProcess = fork(path.join(here, 'burst-sender.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waitFor = <T extends SenderReport['type']>(type: T) =>
    new Promise<Extract<SenderReport, { type: T }>>((resolve, reject) => {
      const onMessage = (m: SenderReport) => {
        if (m.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(m as Extract<SenderReport, { type: T }>);
      };
      const onExit = (code: number | null) => reject(new Error(`the load process exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return {
    command: (c: SenderCommand) => child.send(c),
    waitFor,
    stop: () => {
      if (child.connected) child.disconnect();
    },
  };
}

export interface BurstResult {
  backend: 'SQLite' | 'PostgreSQL';
  responder: Responder;
  idleP50: number;
  idleP99: number;
  burstP50: number;
  burstP99: number;
  burstMax: number;
  /** The 404 that touches no database, during the burst. */
  noDbP99: number;
  noDbMax: number;
  probes: number;
  /** From firing until the last reply ended (ms). */
  burstMs: number;
  firstRecordP50: number;
  firstRecordMax: number;
  /** This process's event-loop delay while probing the burst (p99, max): what the probes' own timing may carry. */
  proberLoopP99: number;
  proberLoopMax: number;
  sender: BurstSendResult;
  healthFailures: number;
}

async function measureOne(pgUrl: string | undefined, responder: Responder): Promise<BurstResult> {
  const database = await freshDatabase(pgUrl);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tanya-bench-burst-'));
  removeOnExit(dataDir);
  const sender = startSender();
  try {
    const emails = await prepareData(dataDir, database.env.DATABASE_URL!);
    let modelEnv: Record<string, string> = { LLM_MODEL: '', LLM_BASE_URL: '', LLM_API_KEY: '' };
    if (responder === 'scripted') {
      const answer = sender.waitFor('model');
      sender.command({ type: 'model', firstTokenMs: MODEL_FIRST_TOKEN_MS, tokenIntervalMs: MODEL_TOKEN_INTERVAL_MS });
      modelEnv = { LLM_BASE_URL: (await answer).baseUrl, LLM_API_KEY: 'test', LLM_MODEL: 'bench-model', LLM_MAX_TOKENS: '' };
    }
    const server = await startServer(
      0,
      {
        ...database.env,
        ...modelEnv,
        OFFLINE_TOKEN_DELAY_MS: String(OFFLINE_TOKEN_DELAY_MS),
        // The per-person limit as shipped: the sends are spread over enough people instead.
        MESSAGE_RATE_LIMIT_PER_USER: '30',
        ...NO_BACKUP_MODEL_ENV,
      },
      // BURST_PROFILE_DIR=/tmp/x: the server writes a V8 CPU profile there when it stops (burst-profile.ts reads it).
      { dataDir, nodeArgs: process.env.BURST_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BURST_PROFILE_DIR}`] : [] },
    );
    const healthAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const noDbAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const tokens: string[] = [];
      for (const email of emails) tokens.push(await benchSignIn(server.url, email));
      const warmupToken = tokens.pop()!;
      const healthUrl = new URL(`${server.url}/api/v1/health`);
      const noDbUrl = new URL(`${server.url}/api/v1/no-such-path`);

      // Warm-up: a few new chats (one at a time), their titles made, then quiet.
      for (let i = 0; i < WARMUP_SENDS; i++) {
        const fired = sender.waitFor('done');
        sender.command({ type: 'fire', url: server.url, tokens: [warmupToken], sends: 1, tag: `Warm-up ${i}` });
        const { result } = await fired;
        if (result.failures.length > 0) throw new Error(`warm-up send failed: ${result.failures.join('; ')}`);
      }
      await new Promise((r) => setTimeout(r, 1_000));

      // Health, and beside it (on a connection of its own) a request that touches no database nor files: a DELETE
      // no route takes, answered 404 by the not-found handler. Health late while that one is not means waiting for
      // the database, not a blocked event loop.
      const probeUntil = async (stop: () => boolean) => {
        const timed = async (agent: http.Agent, url: URL, method: string, expected: number) => {
          const probes: Probe[] = [];
          let failures = 0;
          while (!stop()) {
            const at = performance.now();
            if ((await request(agent, url, method)) !== expected) failures++;
            probes.push({ at, ms: performance.now() - at });
            await new Promise((r) => setTimeout(r, Math.max(0, at + HEALTH_EVERY_MS - performance.now())));
          }
          return { probes, failures };
        };
        const loop = monitorEventLoopDelay({ resolution: 5 });
        loop.enable();
        const [health, noDb] = await Promise.all([timed(healthAgent, healthUrl, 'GET', 200), timed(noDbAgent, noDbUrl, 'DELETE', 404)]);
        loop.disable();
        return { probes: health.probes, failures: health.failures + noDb.failures, noDb: noDb.probes, loopP99: loop.percentile(99) / 1e6, loopMax: loop.max / 1e6 };
      };

      const idleEnd = performance.now() + IDLE_MS;
      const idle = await probeUntil(() => performance.now() >= idleEnd);

      let finished = false;
      const done = sender.waitFor('done').then((d) => {
        finished = true;
        return d;
      });
      const fired = sender.waitFor('fired');
      const firedAt = performance.now();
      // CLOCK_MONOTONIC in µs: the clock of the server's CPU profile, which burst-profile.ts cuts to this window.
      const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
      const window = { fromUs: monotonicUs(), toUs: 0 };
      sender.command({ type: 'fire', url: server.url, tokens, sends: SENDS, tag: 'Burst' });
      await fired;
      const burst = await probeUntil(() => finished);
      const burstMs = performance.now() - firedAt;
      window.toUs = monotonicUs();
      if (process.env.BURST_PROFILE_DIR) writeFileSync(path.join(process.env.BURST_PROFILE_DIR, `window-${server.pid}.json`), JSON.stringify(window));
      const { result } = await done;

      const idleMs = idle.probes.map((p) => p.ms);
      const burstProbes = burst.probes.map((p) => p.ms);
      return {
        backend: pgUrl ? 'PostgreSQL' : 'SQLite',
        responder,
        idleP50: quantile(idleMs, 0.5),
        idleP99: quantile(idleMs, 0.99),
        burstP50: quantile(burstProbes, 0.5),
        burstP99: quantile(burstProbes, 0.99),
        burstMax: Math.max(...burstProbes),
        noDbP99: quantile(burst.noDb.map((p) => p.ms), 0.99),
        noDbMax: Math.max(...burst.noDb.map((p) => p.ms)),
        probes: burstProbes.length,
        burstMs,
        firstRecordP50: quantile(result.firstRecordMs, 0.5),
        firstRecordMax: Math.max(...result.firstRecordMs),
        proberLoopP99: burst.loopP99,
        proberLoopMax: burst.loopMax,
        sender: result,
        healthFailures: idle.failures + burst.failures,
      };
    } finally {
      healthAgent.destroy();
      noDbAgent.destroy();
      await server.stop();
    }
  } finally {
    sender.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  }
}

/** SQLite, and PostgreSQL when DATABASE_URL or TEST_DATABASE_URL is set; the offline responder and a scripted model. */
export async function measureBurst(responders: Responder[] = ['offline', 'scripted'], onlyPostgres = false): Promise<BurstResult[]> {
  const results: BurstResult[] = [];
  const pgUrl = benchPgUrl();
  if (onlyPostgres && !pgUrl) throw new Error('postgres: set DATABASE_URL or TEST_DATABASE_URL to a postgres:// URL');
  for (const url of pgUrl ? (onlyPostgres ? [pgUrl] : [undefined, pgUrl]) : [undefined]) {
    for (const responder of responders) results.push(await measureOne(url, responder));
  }
  return results;
}

/** Prints the section of `npm run bench`. */
export function printBurst(results: BurstResult[]) {
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  console.log(
    `\nBurst: ${SENDS} sends at once (new chats, ${SENDS / PEOPLE} each from ${PEOPLE} people) on one server process; ` +
      `GET /api/v1/health every ${HEALTH_EVERY_MS} ms, idle first, then from the first send until the last reply ended:`,
  );
  for (const r of results) {
    const model =
      r.responder === 'offline'
        ? `offline responder, a word every ${OFFLINE_TOKEN_DELAY_MS} ms`
        : `scripted model, first token after ${MODEL_FIRST_TOKEN_MS} ms then one every ${MODEL_TOKEN_INTERVAL_MS} ms, titles asked of it`;
    console.log(`  ${r.backend}, ${model}:`);
    reportGoal({
      what: `GET /api/v1/health p99 during a burst of ${SENDS} sends (${r.backend}, ${r.responder === 'offline' ? 'offline responder' : 'scripted model'})`,
      measured: ms(r.burstP99),
      reference: `the same server idle just before ${ms(r.idleP99)}`,
      ratio: ratioOf(r.burstP99, r.idleP99),
      goal: `under ${HEALTH_P99_GOAL_MS} ms`,
      pass: r.burstP99 < HEALTH_P99_GOAL_MS,
    });
    console.log(
      `    (burst p50 ${ms(r.burstP50)}, max ${ms(r.burstMax)}, ${r.probes} probes over ${ms(r.burstMs)}; idle p50 ${ms(r.idleP50)}; ` +
        `first record of a send p50 ${ms(r.firstRecordP50)}, last ${ms(r.firstRecordMax)})`,
    );
    console.log(
      `    a request that touches no database (a 404) during the burst: p99 ${ms(r.noDbP99)}, max ${ms(r.noDbMax)}`,
    );
    console.log(
      `    the bench's own event-loop delay: prober p99 ${ms(r.proberLoopP99)} (max ${ms(r.proberLoopMax)}), ` +
        `load process p99 ${ms(r.sender.loopP99Ms)} (max ${ms(r.sender.loopMaxMs)})` +
        (r.responder === 'scripted' ? `; ${r.sender.titles} titles asked of the model` : ''),
    );
    const failures = [...r.sender.failures, ...Array<string>(r.healthFailures).fill('a probe answered unexpectedly')];
    if (failures.length > 0) {
      const counts = new Map<string, number>();
      for (const f of failures) counts.set(f, (counts.get(f) ?? 0) + 1);
      console.log(`    FAILURES: ${[...counts].map(([f, n]) => `${n} × ${f}`).join('; ')}`);
    }
  }
}

// `npx tsx test/bench/burst.ts [offline|scripted] [postgres]` runs this section alone (postgres: only PostgreSQL).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const only = process.argv.slice(2).filter((a): a is Responder => a === 'offline' || a === 'scripted');
  printBurst(await measureBurst(only.length > 0 ? only : undefined, process.argv.includes('postgres')));
  process.exit();
}
