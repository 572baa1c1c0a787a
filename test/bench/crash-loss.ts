import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { freshDatabase } from './bench-database';
import { median } from './median';
import { benchSignIn, OFFLINE_MODEL_ENV, startServer } from './server-process';

// What a crash loses of the replies being written (issue 27): STREAMS replies stream at once (the offline
// responder, TOKENS_PER_SECOND words a second each), the server is killed (kill -9) while all of them are half
// way, and each reader's text (what it had been sent) is compared with what the database holds of that reply.
// SQLite by default; PostgreSQL when DATABASE_URL is set. STREAMS from BENCH_STREAMS (default 300).

const STREAMS = Number(process.env.BENCH_STREAMS ?? 300);
const TOKENS_PER_SECOND = 20;
/** Streams are opened over this long... */
const RAMP_MS = 2_000;
/**
 * ...and the server is killed this long after nearly all of them (KILL_WHEN_STREAMING) have had their first words
 * (an offline reply takes about 7 s), or after KILL_AT_LATEST_MS.
 */
const KILL_AFTER_MS = 2_000;
const KILL_WHEN_STREAMING = 0.95;
const KILL_AT_LATEST_MS = 20_000;
const EMAIL = 'user@demo.local';

interface Reader {
  messageId?: string;
  text: string;
  /** When the first and the last delta arrived. */
  firstAt: number;
  lastAt: number;
  /** When each delta arrived, and the length of the text with it. */
  deltas: Array<{ at: number; chars: number }>;
}

/** Opens a send and reads its stream into `reader` until the connection breaks. */
function follow(agent: http.Agent, url: URL, token: string, message: string, reader: Reader): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
      (res) => {
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const record = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (record.startsWith('event:')) continue;
            const data = record.startsWith('data: ') ? record.slice(6) : undefined;
            if (data === undefined) continue;
            const parsed = JSON.parse(data) as unknown;
            if (typeof parsed === 'string') {
              reader.text += parsed;
              reader.lastAt = performance.now();
              if (!reader.firstAt) reader.firstAt = reader.lastAt;
              reader.deltas.push({ at: reader.lastAt, chars: reader.text.length });
            } else if (!reader.messageId) reader.messageId = (parsed as { message_id: string }).message_id;
          }
        });
        res.on('end', resolve);
        res.on('error', () => resolve());
        res.on('close', resolve);
      },
    );
    req.on('error', () => resolve());
    req.end(JSON.stringify({ conversation_id: null, message }));
  });
}

async function savedReplies(dataDir: string, databaseUrl: string | undefined, ids: string[]): Promise<Map<string, string>> {
  if (!databaseUrl) {
    const db = new SqliteDatabase(path.join(dataDir, 'tanya.db'));
    try {
      const rows = db.prepare(`select id, content from messages where id in (${ids.map(() => '?').join(',')})`).all(...ids) as Array<{ id: string; content: string }>;
      return new Map(rows.map((r) => [r.id, r.content]));
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; content: string }>('select id, content from messages where id = any($1)', [ids]);
    return new Map(rows.map((r) => [r.id, r.content]));
  } finally {
    await client.end();
  }
}

export async function measureCrashLoss() {
  const database = await freshDatabase(process.env.DATABASE_URL);
  const server = await startServer(0, {
    ...database.env,
    OFFLINE_TOKEN_DELAY_MS: String(1000 / TOKENS_PER_SECOND),
    MESSAGE_RATE_LIMIT_PER_USER: '1000000',
    ...OFFLINE_MODEL_ENV,
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  try {
    const token = await benchSignIn(server.url, EMAIL);
    const url = new URL(`${server.url}/api/v1/chat/messages`);
    const readers: Reader[] = Array.from({ length: STREAMS }, () => ({ text: '', firstAt: 0, lastAt: 0, deltas: [] }));
    const streams = readers.map(async (reader, i) => {
      await new Promise((r) => setTimeout(r, (i / STREAMS) * RAMP_MS));
      await follow(agent, url, token, `Crash question ${i}: summarise the quarterly budget review for my team.`, reader);
    });
    const startedAt = performance.now();
    while (readers.filter((r) => r.text).length < KILL_WHEN_STREAMING * STREAMS && performance.now() - startedAt < KILL_AT_LATEST_MS) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, KILL_AFTER_MS));
    const killedAt = performance.now();
    // What each reader had been sent when the server died: nothing more can arrive after this.
    const sent = readers.map((r) => ({
      id: r.messageId,
      text: r.text,
      deltas: r.deltas,
      idleMs: killedAt - r.lastAt,
      rate: r.text.length / ((killedAt - r.firstAt) / 1000),
    }));
    await server.crash();
    await Promise.all(streams);
    agent.destroy();

    const ids = sent.flatMap((s) => (s.id ? [s.id] : []));
    const saved = await savedReplies(server.dataDir, database.env.DATABASE_URL || undefined, ids);
    const losses: number[] = [];
    /** Per reply: from the arrival of the first delta the database did not hold to the kill (0: nothing lost). */
    const lossMs: number[] = [];
    let midway = 0;
    let apart = 0;
    for (const s of sent) {
      if (!s.id) continue;
      const stored = saved.get(s.id) ?? '';
      // The save may be ahead of the reader (sent to the database before the reader got it): no loss then.
      if (!s.text.startsWith(stored) && !stored.startsWith(s.text)) apart++;
      losses.push(Math.max(0, s.text.length - stored.length));
      const firstLost = s.deltas.find((d) => d.chars > stored.length);
      lossMs.push(firstLost ? killedAt - firstLost.at : 0);
      if (s.text.length > 0 && s.idleMs < 1_000) midway++;
    }
    const sorted = [...losses].sort((a, b) => a - b);
    return {
      backend: database.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite',
      streams: STREAMS,
      replies: losses.length,
      midway,
      apart,
      lossMax: sorted.at(-1) ?? Number.NaN,
      lossP99: sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)] ?? Number.NaN,
      lossMedian: median(losses),
      lossMsMax: Math.max(...lossMs),
      lossMsMedian: median(lossMs),
      sentMedian: median(sent.map((s) => s.text.length)),
      /** Characters a second each reply was streamed at (median over those that had text). */
      rateMedian: median(sent.filter((s) => s.text).map((s) => s.rate)),
    };
  } finally {
    agent.destroy();
    await server.stop();
    await database.drop();
  }
}

export function printCrashLoss(r: Awaited<ReturnType<typeof measureCrashLoss>>) {
  console.log(
    `\nCrash loss: ${r.streams} replies streaming at ${TOKENS_PER_SECOND} words/s (${r.backend}, offline responder), kill -9 ` +
      `${KILL_AFTER_MS / 1000} s after ${KILL_WHEN_STREAMING * 100}% had their first words (${r.replies} replies, ${r.midway} still streaming at the kill):`,
  );
  console.log(
    `  characters the reader had been sent but the database did not hold: max ${r.lossMax}, p99 ${r.lossP99}, ` +
      `median ${r.lossMedian} (replies streamed at ${r.rateMedian.toFixed(0)} characters/s, ${r.sentMedian} sent by the kill; median)`,
  );
  console.log(
    `  as time, from the first delta the database did not hold to the kill: max ${r.lossMsMax.toFixed(0)} ms, median ${r.lossMsMedian.toFixed(0)} ms`,
  );
  if (r.apart > 0) console.log(`  ${r.apart} replies saved text that differs from what was sent`);
}

// `npx tsx test/bench/crash-loss.ts` runs this section alone.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printCrashLoss(await measureCrashLoss());
}
