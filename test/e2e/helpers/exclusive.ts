import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from '@playwright/test';

/** Longer than any file that holds the lock takes: a lock this old was left by a run that was killed. */
const STALE_MS = 5 * 60_000;
const WAIT_MS = 4 * 60_000;

/**
 * Serial spec files that change one shared thing (the organisation's one global policy) take turns: each holds a
 * lock for its whole run, so two workers never interleave their writes. The lock is a directory in the temporary
 * folder of the machine running the tests, so it works the same against a local server and against staging.
 * Call it at the top of a `test.describe` in serial mode.
 */
export function runExclusively(name: string) {
  const lock = path.join(tmpdir(), `tanya-e2e-${name}.lock`);
  let held = false;
  // Playwright reads the fixtures a hook wants from its first parameter's pattern: none here.
  // eslint-disable-next-line no-empty-pattern
  test.beforeAll(async ({}, testInfo) => {
    testInfo.setTimeout(WAIT_MS + 30_000);
    const start = Date.now();
    for (;;) {
      try {
        mkdirSync(lock);
        held = true;
        return;
      } catch (err) {
        if ((err as { code?: string }).code !== 'EEXIST') throw err;
        const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
        if (since !== undefined && Date.now() - since > STALE_MS) rmSync(lock, { recursive: true, force: true });
        if (Date.now() - start > WAIT_MS) throw new Error(`another run has held ${lock} for ${WAIT_MS / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  });
  test.afterAll(() => {
    if (held) rmSync(lock, { recursive: true, force: true });
    held = false;
  });
}
