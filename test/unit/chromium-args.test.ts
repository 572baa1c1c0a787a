import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumArgs, PLAYWRIGHT_DISABLED_FEATURES, UNUSED_BROWSER_UI_FEATURES } from '../e2e/helpers/chromium-args';

/** The names in Playwright's own `disabledFeatures` list, read from the installed playwright-core. */
function installedPlaywrightDisabledFeatures(): string[] {
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve('playwright-core/package.json'));
  const bundle = readFileSync(join(root, 'lib', 'coreBundle.js'), 'utf8');
  const list = /disabledFeatures = \[([\s\S]*?)\]\.filter/.exec(bundle)?.[1];
  if (!list) throw new Error('playwright-core no longer declares disabledFeatures where this test reads it');
  return [...list.replace(/\/\/.*$/gm, '').matchAll(/"(\w+)"/g)].map((m) => m[1]);
}

describe('the browser tests’ Chromium switches', () => {
  it('repeat every feature Playwright turns off, since Chromium keeps only the last --disable-features', () => {
    const installed = installedPlaywrightDisabledFeatures();
    expect(installed.length).toBeGreaterThan(5);
    expect(PLAYWRIGHT_DISABLED_FEATURES).toEqual(expect.arrayContaining(installed));
  });

  it('give one --disable-features, with the unused browser UI in it', () => {
    const given = chromiumArgs.filter((arg) => arg.startsWith('--disable-features='));
    expect(given).toHaveLength(1);
    const names = given[0].slice('--disable-features='.length).split(',');
    expect(names).toEqual(expect.arrayContaining([...PLAYWRIGHT_DISABLED_FEATURES, ...UNUSED_BROWSER_UI_FEATURES]));
  });
});
