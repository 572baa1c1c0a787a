import { chromium, type Browser } from 'playwright-core';

/** Headless Chromium as every browser bench runs it: no GPU, no background traffic that would share the cores. */
export function launchBenchBrowser(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
