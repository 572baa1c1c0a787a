import { gzipSync } from 'node:zlib';
import { launchBenchBrowser } from './browser';
import { ratioOf, reportGoal } from './goal-line';

export const LOGIN_JS_BUDGET_KB = 140;

/** Gzip size of every script the browser loads to show /login (service workers blocked: page requests only). */
export async function measureLoginJs(baseUrl: string, executablePath: string) {
  const browser = await launchBenchBrowser(executablePath);
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const scripts: Array<{ url: string; raw: number; gzip: number }> = [];
    const pending: Promise<void>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      pending.push(
        response.body().then((body) => {
          scripts.push({ url: new URL(response.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
        }),
      );
    });
    await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    await Promise.all(pending);
    scripts.sort((a, b) => b.gzip - a.gzip);
    const totalGzip = scripts.reduce((n, s) => n + s.gzip, 0);
    return { scripts, totalGzipKb: totalGzip / 1024 };
  } finally {
    await browser.close();
  }
}

/** The app's scripts on /login, then the goal line against the reference page's (login-reference.ts) total. */
export function printLoginJs(app: Awaited<ReturnType<typeof measureLoginJs>>, reference: Awaited<ReturnType<typeof measureLoginJs>>) {
  console.log('\nJS loaded by the login route (gzip, level 9):');
  for (const s of app.scripts) console.log(`  ${(s.gzip / 1024).toFixed(1).padStart(7)} KB  ${s.url}  (${(s.raw / 1024).toFixed(1)} KB raw)`);
  console.log(`  ${app.totalGzipKb.toFixed(1).padStart(7)} KB  total; the reference page (bare React + router, the same form) loads ${reference.totalGzipKb.toFixed(1)} KB`);
  reportGoal({
    what: 'login route JS (gzip)',
    measured: `${app.totalGzipKb.toFixed(1)} KB`,
    reference: `bare page ${reference.totalGzipKb.toFixed(1)} KB`,
    ratio: ratioOf(app.totalGzipKb, reference.totalGzipKb),
    goal: `<= ${LOGIN_JS_BUDGET_KB} KB`,
    pass: app.totalGzipKb <= LOGIN_JS_BUDGET_KB,
  });
}
