import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from '@playwright/test';

/** Longer than any file that holds the lock takes: a lock this old was left by a run that was killed. */
const STALE_MS = 5 * 60_000;
const WAIT_MS = 4 * 60_000;

// The locks are directories in the temporary folder of the machine running the tests, so they work the same against
// a local server and against staging.

/** Takes the lock `name`, waiting for whoever holds it (up to `waitMs`); returns its release. */
async function takeLock(name: string, waitMs: number): Promise<() => void> {
  const lock = path.join(tmpdir(), `tanya-e2e-${name}.lock`);
  const start = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (err) {
      if ((err as { code?: string }).code !== 'EEXIST') throw err;
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (since !== undefined && Date.now() - since > STALE_MS) rmSync(lock, { recursive: true, force: true });
      if (Date.now() - start > waitMs) throw new Error(`another run has held ${lock} for ${waitMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** Runs `work` holding the lock `name`: one worker at a time (e.g. registering data kept for later runs once). */
export async function whileHolding<T>(name: string, work: () => Promise<T>): Promise<T> {
  const release = await takeLock(name, 60_000);
  try {
    return await work();
  } finally {
    release();
  }
}

/**
 * Serial spec files that change one shared thing (the organisation's one global policy) take turns: each holds a
 * lock for its whole run, so two workers never interleave their writes. Call it at the top of a `test.describe` in
 * serial mode.
 */
export function runExclusively(name: string) {
  let release: (() => void) | null = null;
  // Playwright reads the fixtures a hook wants from its first parameter's pattern: none here.
  // eslint-disable-next-line no-empty-pattern
  test.beforeAll(async ({}, testInfo) => {
    testInfo.setTimeout(WAIT_MS + 30_000);
    release = await takeLock(name, WAIT_MS);
  });
  test.afterAll(() => {
    release?.();
    release = null;
  });
}
