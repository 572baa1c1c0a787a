import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { createDb } from '../../server/db/create-db';
import { migrateToLatest } from '../../server/db/migrate';
import { insertConversation, releaseAnsweringLease } from '../../server/db/repositories/conversations';
import { insertMessage } from '../../server/db/repositories/messages';
import { findUserByEmail } from '../../server/db/repositories/users';
import { seedDemoData } from '../../server/seed';
import { freshDatabase } from './bench-database';
import { median } from './median';

// A follow-up in a conversation of very long messages (issue 27): 200 messages of 100 KB, then a short question.
// Each measured send edits that question again (the conversation keeps its shape: the history is the 200 long
// messages every time), through the real API on an app in this process, against the offline responder. Measured:
// how long the event loop was blocked while the send was answered (a setImmediate chain notes every gap), the
// longest single block and the sum of the blocks of 1 ms or more. SQLite; PostgreSQL when DATABASE_URL is set.
// BENCH_LONG_CHARS=100: the same sends after short messages, the floor to compare with.

const LONG_MESSAGES = 200;
const LONG_CHARS = Number(process.env.BENCH_LONG_CHARS ?? 100_000);
const SENDS = 20;
const WARMUP = 3;
const EMAIL = 'user@demo.local';
const PASSWORD = 'bench-password';

/** Gaps of `minMs` or more between turns of the event loop, from start() until stop(). */
function loopBlocks(minMs = 1) {
  const blocks: number[] = [];
  let running = true;
  let last = performance.now();
  const tick = () => {
    const now = performance.now();
    if (now - last >= minMs) blocks.push(now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop() {
      running = false;
      return blocks;
    },
  };
}

export async function measureHistoryRead() {
  const database = await freshDatabase(process.env.DATABASE_URL);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tanya-history-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-dist'),
    JWT_SECRET: randomBytes(48).toString('base64url'),
    LOG_LEVEL: 'silent',
    MESSAGE_RATE_LIMIT_PER_USER: '100000',
    OFFLINE_TOKEN_DELAY_MS: '0',
    LLM_MODEL: '',
    LLM_BASE_URL: '',
    LLM_API_KEY: '',
    ...database.env,
  });
  const db = createDb(config);
  // Nothing else holds the process open while it waits on SQLite's checkpointer (an unref'd worker).
  const keepAlive = setInterval(() => undefined, 1_000);
  try {
    await migrateToLatest(db);
    await seedDemoData(db, { password: PASSWORD, publicUrl: config.publicUrl });
    const user = (await findUserByEmail(db, EMAIL))!;
    const lease = new Date(0).toISOString();
    const conversation = await insertConversation(db, { user_id: user.id, client_id: user.client_id, title: 'Long messages', answering_until: lease });
    for (let i = 0; i < LONG_MESSAGES; i++) {
      const sender = i % 2 === 0 ? ('user' as const) : ('Assistant' as const);
      const content = `Message ${i + 1}. ${'All work and no play makes a long message. '.repeat(LONG_CHARS / 43 + 1)}`.slice(0, LONG_CHARS);
      await insertMessage(db, { conversation_id: conversation.id, user_id: user.id, sender, content, status: 'complete' });
    }
    const question = await insertMessage(db, { conversation_id: conversation.id, user_id: user.id, sender: 'user', content: 'And the short answer?', status: 'complete' });
    await releaseAnsweringLease(db, conversation.id, lease, true);

    const app = await buildApp({ config, db, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('no address');
      const api = `http://127.0.0.1:${address.port}/api/v1`;
      const login = await fetch(`${api}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
      });
      const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;

      const longest: number[] = [];
      const total: number[] = [];
      for (let i = 0; i < WARMUP + SENDS; i++) {
        const watch = loopBlocks();
        const res = await fetch(`${api}/chat/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ conversation_id: conversation.id, message: `And the short answer? (${i})`, message_id_to_edit: question.id }),
        });
        const text = await res.text();
        const blocks = watch.stop();
        if (res.status !== 200 || !text.includes('event: done')) throw new Error(`send answered ${res.status}: ${text.slice(0, 200)}`);
        if (i >= WARMUP) {
          longest.push(Math.max(0, ...blocks));
          total.push(blocks.reduce((a, b) => a + b, 0));
        }
        // The reply's book-keeping (usage, lease) settles before the next send.
        await new Promise((r) => setTimeout(r, 50));
      }
      return {
        backend: config.databaseUrl ? 'PostgreSQL' : 'SQLite',
        longestMedian: median(longest),
        longestMax: Math.max(...longest),
        totalMedian: median(total),
        totalMax: Math.max(...total),
      };
    } finally {
      await app.close();
    }
  } finally {
    await db.destroy();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
    clearInterval(keepAlive);
  }
}

export function printHistoryRead(r: Awaited<ReturnType<typeof measureHistoryRead>>) {
  console.log(
    `\nA follow-up after ${LONG_MESSAGES} messages of ${LONG_CHARS / 1000} KB (${r.backend}, offline responder, ${SENDS} sends): event loop blocked per send`,
  );
  console.log(`  longest block: median ${r.longestMedian.toFixed(1)} ms, max ${r.longestMax.toFixed(1)} ms`);
  console.log(`  all blocks of 1 ms or more: median ${r.totalMedian.toFixed(1)} ms, max ${r.totalMax.toFixed(1)} ms`);
}

// `npx tsx test/bench/history-read.ts` runs this section alone.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printHistoryRead(await measureHistoryRead());
}
