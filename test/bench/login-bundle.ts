import { gzipSync } from 'node:zlib';
import { launchBenchBrowser } from './browser';

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
