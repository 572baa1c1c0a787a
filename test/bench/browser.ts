import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { chromiumArgs } from '../e2e/helpers/chromium-args';
import { removeOnExit } from './server-process';

/**
 * Headless Chromium as every browser bench runs it, with the browser tests' switches: no GPU, no background traffic
 * and no unused browser UI renderers that would share the cores.
 */
const BENCH_ARGS = chromiumArgs;

/** Its contexts (browser.newContext) are private windows: an HTTP cache in memory, nothing else kept between pages. */
export function launchBenchBrowser(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: BENCH_ARGS });
}

/**
 * A browser with a profile on disk, as a returning visitor's browser is; a private window keeps only an HTTP cache
 * in memory. In one trace each of opening a conversation, the profile's page spent 71 ms instead of 102 ms
 * compiling on the main thread and ran its scripts in 120 ms instead of 200 ms (which of the data Chromium keeps
 * makes that difference is not pinned down: V8's code cache was read back for one script only). Service workers
 * are blocked, as in the private windows: the figure is the page's own. Its directory goes when the bench exits
 * (Chromium may still be writing to it as the context closes).
 */
export async function launchBenchProfile(executablePath: string, viewport: { width: number; height: number }): Promise<BrowserContext> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tanya-bench-profile-'));
  removeOnExit(dir);
  return chromium.launchPersistentContext(dir, { executablePath, args: BENCH_ARGS, serviceWorkers: 'block', viewport });
}
