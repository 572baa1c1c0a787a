import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { BENCH_DEMO_PASSWORD, startServer } from './server-process';
import { seedConversation } from './seed-conversation';

const server = await startServer(0);
const seeded = await seedConversation(server.dataDir, 'user@demo.local', 1000);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
const login = await context.newPage();
await login.goto(`${server.url}/login`);
await login.getByLabel('Email').fill('user@demo.local');
await login.getByLabel('Password').fill(BENCH_DEMO_PASSWORD);
await login.getByRole('button', { name: 'Sign in', exact: true }).click();
await login.waitForURL(/\/chat$/);
await login.close();
for (let i = 0; i < 3; i++) {
  const page = await context.newPage();
  await browser.startTracing(page, { path: `/tmp/prof/trace-${i}.json`, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading'] });
  await page.goto(`${server.url}/chat?id=${encodeURIComponent(seeded.id)}`, { waitUntil: 'commit' });
  await page.waitForSelector('article[aria-label="Assistant message"]');
  await page.waitForTimeout(800);
  await browser.stopTracing();
  const res = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return {
      nav: { dcl: nav.domContentLoadedEventStart, load: nav.loadEventStart, resp: nav.responseEnd },
      res: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => [r.name.replace(location.origin, ''), Math.round(r.startTime), Math.round(r.responseEnd)]),
      marks: performance.getEntriesByType('paint').map((p) => [p.name, Math.round(p.startTime)]),
      origin: performance.timeOrigin,
    };
  });
  writeFileSync(`/tmp/prof/u-open-${i}.json`, JSON.stringify(res, null, 1));
  await page.close();
}
await browser.close();
await server.stop();
