import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { startNginx } from '../server/helpers/nginx';
import { freshDatabase } from './bench-database';
import { ratioOf, reportGoal } from './goal-line';
import { driveStreams, EMAIL, HEALTH_P99_GOAL_MS, LOAD_SERVER_ENV, printFailures, STREAMS, TOKENS_PER_SECOND, type StreamLoadResult } from './load-streams';
import { median } from './median';
import { benchSignIn, startServer } from './server-process';

// `npm run bench -- cluster` (issue 32): two server processes on one PostgreSQL database (DATABASE_URL, a schema of
// the run's) and one Redis (REDIS_URL, default the machine's, under a prefix of the run's), behind Debian's nginx
// with the deployment's proxy settings. In one run, each figure beside its single-instance twin:
// - STREAMS replies streaming through the proxy (spread over both) against the same load on one instance directly
//   (a process of its own, before the two start): health p99 through the proxy, memory per stream per instance;
// - the proxy's added time to first token: the same send direct and through nginx, paired (alternating), medians.

const FIRST_TOKEN_PAIRS = 40;
/** Between sends: the last reply's first writes are done by then. */
const PAUSE_MS = 100;
const WARMUP_SENDS = 20;

/**
 * Milliseconds from sending a question to the reply's first text, over a fresh connection as a browser's first send.
 * The reader leaves then (the server writes the rest on its own), so the pairs do not wait for whole replies.
 */
function firstToken(baseUrl: string, token: string, message: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      `${baseUrl}/api/v1/chat/messages`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`send answered ${res.statusCode}`));
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
          // The control event, then text deltas as bare `data:` events (a block without an `event:` line).
          if (text.split('\n\n').slice(1, -1).some((block) => block.startsWith('data: '))) {
            resolve(performance.now() - started);
            req.destroy();
          }
        });
        res.on('end', () => reject(new Error('no text came')));
        res.on('error', () => undefined);
      },
    );
    req.on('error', (err) => reject(err));
    req.end(JSON.stringify({ conversation_id: null, message }));
  });
}

async function deletePrefix(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 }) as AsyncIterable<string[]>) if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

export async function measureCluster() {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl?.startsWith('postgres')) throw new Error('npm run bench -- cluster needs DATABASE_URL=postgres://... (the instances share it)');
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';
  const redisPrefix = `bench-${randomBytes(5).toString('hex')}:`;
  const database = await freshDatabase(databaseUrl);
  const env = { ...database.env, ...LOAD_SERVER_ENV, REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix, JWT_SECRET: randomBytes(48).toString('base64url') };
  try {
    // The single-instance figures first, on a fresh process of their own (it also migrates and seeds), so each
    // phase's memory is measured from a process that has carried no load before.
    const solo = await startServer(0, env);
    let single: StreamLoadResult;
    try {
      single = await driveStreams(solo.url, await benchSignIn(solo.url, EMAIL), [solo.pid]);
    } finally {
      await solo.stop();
    }
    const a = await startServer(0, env);
    const b = await startServer(0, env);
    const proxy = await startNginx([new URL(a.url).host, new URL(b.url).host], { workerConnections: 8 * STREAMS });
    try {
      const token = await benchSignIn(a.url, EMAIL);
      const cluster = await driveStreams(proxy.url, token, [a.pid, b.pid]);
      for (let i = 0; i < WARMUP_SENDS; i++) await firstToken(i % 2 ? a.url : proxy.url, token, `Warm-up ${i}`);
      const direct: number[] = [];
      const proxied: number[] = [];
      const added: number[] = [];
      for (let i = 0; i < FIRST_TOKEN_PAIRS; i++) {
        // Alternating which goes first, so neither always meets the machine as the other left it.
        const directFirst = i % 2 === 0;
        const first = await firstToken(directFirst ? a.url : proxy.url, token, `Paired ${i}`);
        await new Promise((r) => setTimeout(r, PAUSE_MS));
        const second = await firstToken(directFirst ? proxy.url : a.url, token, `Paired ${i}`);
        await new Promise((r) => setTimeout(r, PAUSE_MS));
        const [d, p] = directFirst ? [first, second] : [second, first];
        direct.push(d);
        proxied.push(p);
        added.push(p - d);
      }
      return { single, cluster, firstToken: { direct: median(direct), proxied: median(proxied), added: median(added) } };
    } finally {
      await proxy.stop();
      await a.stop();
      await b.stop();
    }
  } finally {
    await database.drop();
    await deletePrefix(redisUrl, redisPrefix);
  }
}

export function printCluster(r: Awaited<ReturnType<typeof measureCluster>>) {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const load = (x: StreamLoadResult) =>
    `${x.deltasPerSecond.toFixed(0)} deltas/s read (${(STREAMS * TOKENS_PER_SECOND).toLocaleString('en')}/s expected), ${x.openMean.toFixed(0)} streams open on average`;
  console.log(
    `\nCluster: two instances on one PostgreSQL and one Redis behind nginx, ${STREAMS.toLocaleString('en')} streams at ${TOKENS_PER_SECOND} tokens/s, ` +
      'beside the same load on one instance directly:',
  );
  reportGoal({
    what: `GET /api/v1/health p99 through nginx under ${STREAMS.toLocaleString('en')} streams over two instances`,
    measured: `${r.cluster.healthP99.toFixed(1)} ms`,
    reference: `one instance directly under the same load ${r.single.healthP99.toFixed(1)} ms`,
    ratio: ratioOf(r.cluster.healthP99, r.single.healthP99),
    goal: `under ${HEALTH_P99_GOAL_MS} ms`,
    pass: r.cluster.healthP99 < HEALTH_P99_GOAL_MS,
  });
  console.log(
    `  (idle: ${r.cluster.idleHealthP99.toFixed(1)} ms through nginx, ${r.single.idleHealthP99.toFixed(1)} ms directly; p50 ${r.cluster.healthP50.toFixed(1)} vs ${r.single.healthP50.toFixed(1)} ms)`,
  );
  const [one] = r.single.memory;
  console.log(
    `  memory per stream: ${r.cluster.memory.map((m, i) => `instance ${i + 1} ${kb(m.rssPerStream)}`).join(', ')} (each carrying about ${STREAMS / 2}), ` +
      `one instance alone ${kb(one.rssPerStream)} (carrying ${STREAMS}) — reported, no goal`,
  );
  console.log(`  throughput: two instances ${load(r.cluster)}; one instance ${load(r.single)}`);
  console.log(
    `  nginx's added time to first token: ${r.firstToken.added.toFixed(1)} ms (median of ${FIRST_TOKEN_PAIRS} paired sends; first token directly ` +
      `${r.firstToken.direct.toFixed(1)} ms, through nginx ${r.firstToken.proxied.toFixed(1)} ms) — reported, no goal`,
  );
  printFailures([...r.single.failures.map((f) => `one instance: ${f}`), ...r.cluster.failures.map((f) => `two instances: ${f}`)]);
}

// `npx tsx test/bench/cluster-load.ts` runs this section alone.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printCluster(await measureCluster());
}
