import { readFileSync } from 'node:fs';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { freshDatabase } from './bench-database';
import { ratioOf, reportGoal } from './goal-line';
import { benchSignIn, OFFLINE_MODEL_ENV, startServer } from './server-process';

// Many people getting answers at once on one server process: STREAMS replies stream concurrently at
// TOKENS_PER_SECOND each (the offline responder, paced by OFFLINE_TOKEN_DELAY_MS), every reader asking a
// follow-up as soon as its reply is done, so the number of open streams stays at STREAMS for the whole
// window. Meanwhile GET /api/v1/health is timed: a server whose event loop is blocked (by synchronous
// database writes, say) answers it late. SQLite by default; PostgreSQL when DATABASE_URL is set.

export const STREAMS = 1_000;
export const TOKENS_PER_SECOND = 20;
export const HEALTH_P99_GOAL_MS = 50;
/** Streams are opened over this long (a thousand people do not press send in the same millisecond)... */
const RAMP_MS = 5_000;
/** ...then measured for this long, with every stream kept open. */
const WINDOW_MS = 20_000;
const HEALTH_EVERY_MS = 20;
/** Health is probed this long before any stream opens: the reference printed beside the goal. */
const IDLE_PROBE_MS = 5_000;
export const EMAIL = 'user@demo.local';
/** A server under load: replies paced at TOKENS_PER_SECOND by the offline responder, no per-person question limit. */
export const LOAD_SERVER_ENV = { OFFLINE_TOKEN_DELAY_MS: String(1000 / TOKENS_PER_SECOND), MESSAGE_RATE_LIMIT_PER_USER: '1000000', ...OFFLINE_MODEL_ENV };

interface Sample {
  at: number;
  ms: number;
}

export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : Number.NaN;
}

function post(agent: http.Agent, url: URL, token: string, body: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

function get(agent: http.Agent, url: URL): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

export const quantile = (values: number[], q: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};

export interface StreamLoadResult {
  healthP50: number;
  healthP99: number;
  healthMax: number;
  healthSamples: number;
  idleHealthP99: number;
  rampHealthP99: number;
  openMean: number;
  openMin: number;
  repliesPerSecond: number;
  deltasPerSecond: number;
  /** Per server process, its resident memory before the streams and at their peak, and the peak's growth per stream it served. */
  memory: { pid: number; rssBefore: number; rssPeak: number; rssPerStream: number }[];
  failures: string[];
}

/**
 * STREAMS replies kept streaming through `baseUrl` (one server, or a proxy in front of several, whose processes are
 * `pids`), GET /api/v1/health timed through it meanwhile, and first without any stream (the reference). Memory per
 * stream divides each process's growth by its share of the streams (a proxy spreads them evenly).
 */
export async function driveStreams(baseUrl: string, token: string, pids: number[]): Promise<StreamLoadResult> {
  const streamAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const healthAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const sendUrl = new URL(`${baseUrl}/api/v1/chat/messages`);
    const healthUrl = new URL(`${baseUrl}/api/v1/health`);

    let open = 0;
    let replies = 0;
    let deltas = 0;
    const failures: string[] = [];
    const send = async (conversationId: string | null, i: number): Promise<string | null> => {
      open++;
      try {
        const res = await post(streamAgent, sendUrl, token, { conversation_id: conversationId, message: `Load question ${i}: summarise the quarterly budget review for my team.` });
        if (res.status !== 200) {
          failures.push(`HTTP ${res.status}`);
          return conversationId;
        }
        if (!res.text.includes('event: done')) failures.push('a stream ended without done');
        if (res.text.includes('event: error')) failures.push('a stream reported an error');
        replies++;
        deltas += res.text.split('\n\n').length - 3;
        const control = JSON.parse(res.text.slice(res.text.indexOf('data: ') + 6, res.text.indexOf('\n'))) as { conversation_id: string };
        return control.conversation_id;
      } catch (err) {
        failures.push(String(err));
        return conversationId;
      } finally {
        open--;
      }
    };

    // One reply per process first: code paths warm, the baseline memory taken after them.
    for (let i = 0; i < 2 * pids.length; i++) await send(null, i);
    await new Promise((r) => setTimeout(r, 1_000));
    const rssBefore = pids.map(rssOf);
    // The goal's reference: the same probes of the same servers with no stream open, on the machine as loaded now.
    const idle: number[] = [];
    for (const end = performance.now() + IDLE_PROBE_MS; performance.now() < end; ) {
      const at = performance.now();
      if ((await get(healthAgent, healthUrl)) !== 200) failures.push('health answered other than 200 before the streams');
      idle.push(performance.now() - at);
      await new Promise((r) => setTimeout(r, Math.max(0, at + HEALTH_EVERY_MS - performance.now())));
    }

    const rampStart = performance.now();
    const windowStart = rampStart + RAMP_MS;
    const windowEnd = windowStart + WINDOW_MS;
    const slots = Array.from({ length: STREAMS }, async (_, slot) => {
      await new Promise((r) => setTimeout(r, (slot / STREAMS) * RAMP_MS));
      let conversationId: string | null = null;
      for (let i = 1; performance.now() < windowEnd; i++) conversationId = await send(conversationId, slot * 1000 + i);
    });

    const health: Sample[] = [];
    const openSamples: number[] = [];
    const rssSamples: number[][] = pids.map(() => []);
    let deltasAtWindowStart = 0;
    let repliesAtWindowStart = 0;
    const probe = (async () => {
      while (performance.now() < windowEnd) {
        const at = performance.now();
        const status = await get(healthAgent, healthUrl);
        if (status !== 200) failures.push(`health answered ${status}`);
        health.push({ at, ms: performance.now() - at });
        await new Promise((r) => setTimeout(r, Math.max(0, at + HEALTH_EVERY_MS - performance.now())));
      }
    })();
    const monitor = (async () => {
      while (performance.now() < windowEnd) {
        await new Promise((r) => setTimeout(r, 250));
        const now = performance.now();
        if (now < windowStart) {
          deltasAtWindowStart = deltas;
          repliesAtWindowStart = replies;
          continue;
        }
        openSamples.push(open);
        pids.forEach((pid, i) => rssSamples[i].push(rssOf(pid)));
      }
    })();
    await Promise.all([probe, monitor, ...slots]);

    const inWindow = health.filter((s) => s.at >= windowStart).map((s) => s.ms);
    const inRamp = health.filter((s) => s.at < windowStart).map((s) => s.ms);
    return {
      healthP50: quantile(inWindow, 0.5),
      healthP99: quantile(inWindow, 0.99),
      healthMax: Math.max(...inWindow),
      healthSamples: inWindow.length,
      idleHealthP99: quantile(idle, 0.99),
      rampHealthP99: quantile(inRamp, 0.99),
      openMean: openSamples.reduce((a, b) => a + b, 0) / Math.max(1, openSamples.length),
      openMin: Math.min(...openSamples),
      // Replies finished and deltas read in the window (the reading lags the writing by very little).
      repliesPerSecond: ((replies - repliesAtWindowStart) * 1000) / WINDOW_MS,
      deltasPerSecond: ((deltas - deltasAtWindowStart) * 1000) / WINDOW_MS,
      memory: pids.map((pid, i) => {
        const rssPeak = Math.max(...rssSamples[i]);
        return { pid, rssBefore: rssBefore[i], rssPeak, rssPerStream: (rssPeak - rssBefore[i]) / (STREAMS / pids.length) };
      }),
      failures,
    };
  } finally {
    streamAgent.destroy();
    healthAgent.destroy();
  }
}

export async function measureLoadStreams() {
  const database = await freshDatabase(process.env.DATABASE_URL);
  try {
    const server = await startServer(0, { ...database.env, ...LOAD_SERVER_ENV });
    try {
      const token = await benchSignIn(server.url, EMAIL);
      return { backend: process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite', ...(await driveStreams(server.url, token, [server.pid])) };
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

/** Prints the section of `npm run bench`. */
export function printLoadStreams(r: Awaited<ReturnType<typeof measureLoadStreams>>) {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  console.log(
    `\nLoad: ${STREAMS.toLocaleString('en')} concurrent streams at ${TOKENS_PER_SECOND} tokens/s on one server process (${r.backend}, offline responder; ` +
      `opened over ${RAMP_MS / 1000} s, then measured for ${WINDOW_MS / 1000} s with each reader asking again as soon as its reply is done):`,
  );
  reportGoal({
    what: `GET /api/v1/health p99 under ${STREAMS.toLocaleString('en')} streams`,
    measured: `${r.healthP99.toFixed(1)} ms`,
    reference: `the same server with no stream open ${r.idleHealthP99.toFixed(1)} ms`,
    ratio: ratioOf(r.healthP99, r.idleHealthP99),
    goal: `under ${HEALTH_P99_GOAL_MS} ms`,
    pass: r.healthP99 < HEALTH_P99_GOAL_MS,
  });
  console.log(
    `  (health p50 ${r.healthP50.toFixed(1)} ms, max ${r.healthMax.toFixed(1)} ms, ${r.healthSamples} probes; while the streams were being opened p99 ${r.rampHealthP99.toFixed(1)} ms)`,
  );
  const [m] = r.memory;
  console.log(`  memory per stream ${(m.rssPerStream / 1024).toFixed(1)} KB RSS (${mb(m.rssBefore)} before, ${mb(m.rssPeak)} at the peak) — reported, no goal`);
  console.log(
    `  open streams ${r.openMean.toFixed(0)} on average (min ${r.openMin}); ${r.deltasPerSecond.toFixed(0)} deltas/s read ` +
      `(${(STREAMS * TOKENS_PER_SECOND).toLocaleString('en')}/s expected); ${r.repliesPerSecond.toFixed(1)} replies finished/s`,
  );
  printFailures(r.failures);
}

/** Each kind of failure once, with how often it happened. */
export function printFailures(failures: string[]) {
  if (failures.length === 0) return;
  const counts = new Map<string, number>();
  for (const f of failures) counts.set(f, (counts.get(f) ?? 0) + 1);
  console.log(`  FAILURES: ${[...counts].map(([f, n]) => `${n} × ${f}`).join('; ')}`);
}

// `npx tsx test/bench/load-streams.ts` runs this section alone.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printLoadStreams(await measureLoadStreams());
}
