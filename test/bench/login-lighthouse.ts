import { pathToFileURL } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { median } from './median';

// Lighthouse's mobile performance score of /login: the default config (Moto G Power emulation, simulated
// slow-4G throttling and 4x CPU slowdown), performance category only. Each run gets a fresh Chromium, so no run
// reuses another's HTTP cache or service worker; the median of the runs is reported because the score moves
// with the machine's load.

export const LIGHTHOUSE_SCORE_GOAL = 0.98;
export const LIGHTHOUSE_RUNS = 3;

export interface LighthouseRun {
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  /** Bytes of JavaScript the page transferred during the run (compressed, with headers, as on the wire). */
  scriptBytes: number;
  scripts: Array<{ url: string; transferSize: number }>;
}

interface NetworkItem {
  url: string;
  resourceType?: string;
  transferSize?: number;
}

async function runOnce(url: string, chromePath: string): Promise<LighthouseRun> {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
    if (!result) throw new Error('Lighthouse returned no result');
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const requests = ((lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ?? []).filter(
      (r) => r.resourceType === 'Script',
    );
    return {
      score: lhr.categories.performance?.score ?? Number.NaN,
      fcpMs: value('first-contentful-paint'),
      lcpMs: value('largest-contentful-paint'),
      tbtMs: value('total-blocking-time'),
      cls: value('cumulative-layout-shift'),
      speedIndexMs: value('speed-index'),
      scriptBytes: requests.reduce((n, r) => n + (r.transferSize ?? 0), 0),
      scripts: requests.map((r) => ({ url: new URL(r.url).pathname, transferSize: r.transferSize ?? 0 })),
    };
  } finally {
    chrome.kill();
  }
}

export async function measureLoginLighthouse(baseUrl: string, chromePath: string, runs = LIGHTHOUSE_RUNS) {
  const results: LighthouseRun[] = [];
  for (let i = 0; i < runs; i++) results.push(await runOnce(`${baseUrl}/login`, chromePath));
  const pick = (key: keyof Omit<LighthouseRun, 'scripts'>) => median(results.map((r) => r[key]));
  return {
    runs: results,
    median: {
      score: pick('score'),
      fcpMs: pick('fcpMs'),
      lcpMs: pick('lcpMs'),
      tbtMs: pick('tbtMs'),
      cls: pick('cls'),
      speedIndexMs: pick('speedIndexMs'),
      scriptBytes: pick('scriptBytes'),
    },
  };
}

export function printLoginLighthouse({ runs, median: m }: Awaited<ReturnType<typeof measureLoginLighthouse>>) {
  const ms = (v: number) => `${Math.round(v)} ms`;
  const kb = (v: number) => `${(v / 1024).toFixed(1)} KB`;
  console.log(`\nLighthouse mobile performance of /login (median of ${runs.length} runs):`);
  for (const [i, r] of runs.entries()) {
    console.log(
      `  run ${i + 1}: score ${r.score.toFixed(2)}  FCP ${ms(r.fcpMs)}  LCP ${ms(r.lcpMs)}  TBT ${ms(r.tbtMs)}  CLS ${r.cls.toFixed(3)}  SI ${ms(r.speedIndexMs)}  JS ${kb(r.scriptBytes)}`,
    );
  }
  console.log(`  score ${m.score.toFixed(2)} — goal at least ${LIGHTHOUSE_SCORE_GOAL}`);
  console.log(`  LCP ${ms(m.lcpMs)}  TBT ${ms(m.tbtMs)}  FCP ${ms(m.fcpMs)}  CLS ${m.cls.toFixed(3)}  SI ${ms(m.speedIndexMs)}`);
  console.log(`  JS transferred ${kb(m.scriptBytes)} (as on the wire: compressed, with headers; last run's scripts below)`);
  const last = runs.at(-1);
  if (last) for (const s of [...last.scripts].sort((a, b) => b.transferSize - a.transferSize)) console.log(`    ${kb(s.transferSize).padStart(9)}  ${s.url}`);
}

// `npx tsx test/bench/login-lighthouse.ts <base URL>` measures a server that is already running.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  printLoginLighthouse(await measureLoginLighthouse(process.argv[2] ?? 'http://127.0.0.1:8080', chrome));
}
