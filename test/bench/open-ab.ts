import { chromium } from 'playwright-core';
import { BENCH_DEMO_PASSWORD, startServer, type BenchServer } from './server-process';
import { LAST_MESSAGE_MARKER, seedConversation } from './seed-conversation';

// Compares two (or more) builds on opening a 1,000-message conversation:
//   npx vite build --outDir /tmp/a && <change> && npx vite build --outDir /tmp/b
//   npx tsx test/bench/open-ab.ts /tmp/a /tmp/b        (N=30 page loads each by default)
// On a small shared VM single runs of `npm run bench -- open` vary by ±60 ms between batches, more than most
// single changes gain. Here every build has its own server and signed-in context in one browser, and their page
// loads alternate (A B B A ...), so both see the same machine; the median of the paired differences is the figure
// to trust. Each load is timed as the bench does: until the end of the last message is inside the scroller.

const dirs = process.argv.slice(2);
if (dirs.length < 2) {
  console.error('usage: npx tsx test/bench/open-ab.ts <build dir A> <build dir B> [more builds]');
  process.exit(2);
}
const N = Number(process.env.N ?? 30);
const EMAIL = 'user@demo.local';

/** In the page before its scripts: logs `open-ab:<ms>` once the last message's end is on screen. */
const watch = `(() => {
  const tick = () => {
    const all = document.querySelectorAll('article[aria-label="Your message"], article[aria-label="Assistant message"]');
    const last = all[all.length - 1];
    const box = document.querySelector('[data-testid="message-scroller"]')?.getBoundingClientRect();
    if (last && box && last.textContent.includes(${JSON.stringify(LAST_MESSAGE_MARKER)})) {
      const r = last.getBoundingClientRect();
      if (r.height > 0 && r.bottom > box.top && r.bottom <= box.bottom + 2) return console.log('open-ab:' + performance.now());
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const servers: BenchServer[] = [];
try {
  for (const dir of dirs) servers.push(await startServer(0, { STATIC_DIR: dir }));
  const conversations = await Promise.all(servers.map((s) => seedConversation(s.dataDir, EMAIL, 1_000)));
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const contexts = [];
    for (const server of servers) {
      const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
      const login = await context.newPage();
      await login.goto(`${server.url}/login`);
      await login.getByLabel('Email').fill(EMAIL);
      await login.getByLabel('Password').fill(BENCH_DEMO_PASSWORD);
      await login.getByRole('button', { name: 'Sign in', exact: true }).click();
      await login.waitForURL(/\/chat$/);
      await login.close();
      contexts.push(context);
    }
    const times: number[][] = dirs.map(() => []);
    for (let i = 0; i < N; i++) {
      for (let k = 0; k < dirs.length; k++) {
        const j = i % 2 ? dirs.length - 1 - k : k;
        const page = await contexts[j]!.newPage();
        await page.addInitScript({ content: watch });
        const shown = page.waitForEvent('console', { predicate: (m) => m.text().startsWith('open-ab:'), timeout: 30_000 });
        await page.goto(`${servers[j]!.url}/chat?id=${encodeURIComponent(conversations[j]!.id)}`, { waitUntil: 'commit' });
        times[j]!.push(Number((await shown).text().slice('open-ab:'.length)));
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
