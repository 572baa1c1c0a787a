import { launchBenchBrowser } from './browser';
import { median } from './median';
import { EMAIL, initScript, MESSAGE_COUNT, signedInContext, watchLastMessage, type PageTimes } from './open-conversation';
import { startServer, type BenchServer } from './server-process';
import { LAST_MESSAGE_MARKER, seedConversation } from './seed-conversation';

// Compares two (or more) builds on opening a 1,000-message conversation:
//   npx vite build --outDir /tmp/a && <change> && npx vite build --outDir /tmp/b
//   npx tsx test/bench/open-ab.ts /tmp/a /tmp/b        (N=30 page loads each by default)
// On a small shared VM single runs of `npm run bench -- open` vary by ±60 ms between batches, more than most
// single changes gain. Here every build has its own server and signed-in context in one browser, and their page
// loads alternate (A B B A ...), so both see the same machine; the median of the paired differences is the figure
// to trust. Each load is timed as the bench does, until the end of the last message is inside the scroller.

const dirs = process.argv.slice(2);
if (dirs.length < 2) {
  console.error('usage: npx tsx test/bench/open-ab.ts <build dir A> <build dir B> [more builds]');
  process.exit(2);
}
const N = Number(process.env.N ?? 30);
const REPORT = 'open-ab:';
/** Reported at the first frame the last message's end is on screen (no settling wait). */
const watch = initScript(watchLastMessage, { marker: LAST_MESSAGE_MARKER, settleMs: 0, report: REPORT });

const servers: BenchServer[] = [];
try {
  for (const dir of dirs) servers.push(await startServer(0, { STATIC_DIR: dir }));
  const conversations = await Promise.all(servers.map((s) => seedConversation(s.dataDir, EMAIL, MESSAGE_COUNT)));
  const browser = await launchBenchBrowser(process.env.CHROME_PATH ?? '/usr/bin/chromium');
  try {
    const contexts = [];
    for (const server of servers) contexts.push(await signedInContext(browser, server.url));
    const times: number[][] = dirs.map(() => []);
    for (let i = 0; i < N; i++) {
      for (let k = 0; k < dirs.length; k++) {
        const j = i % 2 ? dirs.length - 1 - k : k;
        const page = await contexts[j]!.newPage();
        await page.addInitScript({ content: watch });
        const shown = page.waitForEvent('console', { predicate: (m) => m.text().startsWith(REPORT), timeout: 30_000 });
        await page.goto(`${servers[j]!.url}/chat?id=${encodeURIComponent(conversations[j]!.id)}`, { waitUntil: 'commit' });
        times[j]!.push((JSON.parse((await shown).text().slice(REPORT.length)) as PageTimes).firstVisible);
        await page.close();
      }
    }
    dirs.forEach((dir, j) => console.log(`${dir}: median ${median(times[j]!).toFixed(0)} ms over ${N} loads`));
    for (let j = 1; j < dirs.length; j++) {
      const diff = median(times[j]!.map((t, i) => t - times[0]![i]!));
      console.log(`${dirs[j]} - ${dirs[0]}: median paired difference ${diff >= 0 ? '+' : ''}${diff.toFixed(0)} ms`);
    }
  } finally {
    await browser.close();
  }
} finally {
  for (const server of servers) await server.stop();
}
