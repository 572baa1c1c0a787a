import type { BrowserContext } from 'playwright-core';
import { launchBenchBrowser } from './browser';
import { median } from './median';
import {
  EMAIL,
  initScript,
  MESSAGE_COUNT,
  signedInContext,
  signedInProfile,
  WARMUP_LOADS,
  watchLastMessage,
  type PageTimes,
} from './open-conversation';
import { startServer, type BenchServer } from './server-process';
import { LAST_MESSAGE_MARKER, seedConversation } from './seed-conversation';

// Compares two (or more) builds on opening a 1,000-message conversation:
//   npx vite build --outDir /tmp/a && <change> && npx vite build --outDir /tmp/b
//   npx tsx test/bench/open-ab.ts /tmp/a /tmp/b        (N=30 page loads each by default)
// On a small shared VM single runs of `npm run bench -- open` vary by ±60 ms between batches, more than most
// single changes gain. Here every build has its own server and signed-in browser, and their page loads alternate
// (A B B A ...), so both see the same machine; the median of the paired differences is the figure to trust. Each
// load is timed as the bench does, until the end of the last message is inside the scroller, in a browser with a
// profile of its own as the bench's goal figure is (WINDOW=private: private windows of one browser instead).

const dirs = process.argv.slice(2);
if (dirs.length < 2) {
  console.error('usage: npx tsx test/bench/open-ab.ts <build dir A> <build dir B> [more builds]');
  process.exit(2);
}
const N = Number(process.env.N ?? 30);
const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const REPORT = 'open-ab:';
/** Reported at the first frame the last message's end is on screen (no settling wait). */
const watch = initScript(watchLastMessage, { marker: LAST_MESSAGE_MARKER, settleMs: 0, report: REPORT });

interface Build {
  server: BenchServer;
  conversationId: string;
  context: BrowserContext;
}

/** Opens the build's conversation in a new tab; the time until its last message is on screen. */
async function openOnce({ server, conversationId, context }: Build): Promise<number> {
  const page = await context.newPage();
  try {
    await page.addInitScript({ content: watch });
    const shown = page.waitForEvent('console', { predicate: (m) => m.text().startsWith(REPORT), timeout: 30_000 });
    await page.goto(`${server.url}/chat?id=${encodeURIComponent(conversationId)}`, { waitUntil: 'commit' });
    return (JSON.parse((await shown).text().slice(REPORT.length)) as PageTimes).firstVisible;
  } finally {
    await page.close();
  }
}

const servers: BenchServer[] = [];
const builds: Build[] = [];
const browser = process.env.WINDOW === 'private' ? await launchBenchBrowser(chrome) : null;
try {
  for (const dir of dirs) servers.push(await startServer(0, { STATIC_DIR: dir }));
  const conversations = await Promise.all(servers.map((s) => seedConversation(s.dataDir, EMAIL, MESSAGE_COUNT)));
  for (const [j, server] of servers.entries()) {
    const context = browser ? await signedInContext(browser, server.url) : await signedInProfile(chrome, server.url);
    builds.push({ server, conversationId: conversations[j]!.id, context });
  }
  for (let w = 0; w < WARMUP_LOADS; w++) for (const build of builds) await openOnce(build);
  const times: number[][] = dirs.map(() => []);
  for (let i = 0; i < N; i++) {
    for (let k = 0; k < builds.length; k++) {
      const j = i % 2 ? builds.length - 1 - k : k;
      times[j]!.push(await openOnce(builds[j]!));
    }
  }
  dirs.forEach((dir, j) => console.log(`${dir}: median ${median(times[j]!).toFixed(0)} ms over ${N} loads`));
  for (let j = 1; j < dirs.length; j++) {
    const diff = median(times[j]!.map((t, i) => t - times[0]![i]!));
    console.log(`${dirs[j]} - ${dirs[0]}: median paired difference ${diff >= 0 ? '+' : ''}${diff.toFixed(0)} ms`);
  }
} finally {
  if (browser) await browser.close();
  else for (const build of builds) await build.context.close();
  for (const server of servers) await server.stop();
}
