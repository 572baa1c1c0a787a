import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { removeOnExit } from './server-process';

/** Headless Chromium as every browser bench runs it: no GPU, no background traffic that would share the cores. */
const BENCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Its contexts (browser.newContext) are private windows: an HTTP cache in memory, nothing else kept between pages. */
export function launchBenchBrowser(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: BENCH_ARGS });
}

/**
 * A browser with a profile on disk, as a returning visitor's browser is: besides the HTTP cache it keeps what V8
 * learnt on earlier visits (compiled code, which functions ran at load), which a private window throws away.
 * In a trace of opening a conversation that is about 30 ms less compiling on the main thread, and its scripts
 * run in 120 ms instead of 200 ms. Service workers are blocked, as in the private windows: the figure is the
 * page's own. Its directory goes when the bench exits (Chromium may still be writing to it as the context closes).
 */
export async function launchBenchProfile(executablePath: string, viewport: { width: number; height: number }): Promise<BrowserContext> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tanya-bench-profile-'));
  removeOnExit(dir);
  return chromium.launchPersistentContext(dir, { executablePath, args: BENCH_ARGS, serviceWorkers: 'block', viewport });
}
