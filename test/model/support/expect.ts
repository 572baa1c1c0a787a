import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import { expect as vitestExpect } from 'vitest';

const thisFile = fileURLToPath(import.meta.url);

/**
 * Vitest's `expect` for the model tests, with the passing case of its commonest matchers decided here.
 *
 * A model test replays thousands of generated paths and checks dozens of invariants after every step: millions of
 * assertions a run. Each call of Vitest's own `expect` builds a chai assertion and rewrites the test's state to
 * count it: about a third of chat-send's model test (46.6 CPU-seconds), its `setState` alone 11.3 s, chai's proxies
 * and the garbage they leave most of the rest. Here `toBe`, `toEqual`, `toBeNull`, `toBeUndefined` and
 * `toBeDefined` first compare directly (Object.is; `isDeepStrictEqual`, stricter than `toEqual`, so a pass here
 * is a pass there), and only a mismatch goes to Vitest's matcher, which fails with its own message and diff.
 * Every other matcher, `.not` and the static helpers (`expect.anything()`) are Vitest's.
 */
export const expect = new Proxy(vitestExpect, {
  apply(_target, _this, [actual, message]: [unknown, string?]) {
    const slow = () => vitestExpect(actual, message);
    // A mismatch fails in Vitest's matcher; its report points at the check that asked, not at this file.
    const fail = (assert: () => void) => {
      try {
        assert();
      } catch (error) {
        if (error instanceof Error && error.stack) error.stack = error.stack.split('\n').filter((line) => !line.includes(thisFile)).join('\n');
        throw error;
      }
    };
    const fast: Record<string, (expected?: unknown) => void> = {
      toBe: (expected) => {
        if (!Object.is(actual, expected)) fail(() => slow().toBe(expected));
      },
      toEqual: (expected) => {
        if (!isDeepStrictEqual(actual, expected)) fail(() => slow().toEqual(expected));
      },
      toBeNull: () => {
        if (actual !== null) fail(() => slow().toBeNull());
      },
      toBeUndefined: () => {
        if (actual !== undefined) fail(() => slow().toBeUndefined());
      },
      toBeDefined: () => {
        if (actual === undefined) fail(() => slow().toBeDefined());
      },
    };
    return new Proxy(fast, {
      get(own, name) {
        if (typeof name === 'string' && Object.hasOwn(own, name)) return own[name];
        const assertion = slow() as unknown as Record<string | symbol, unknown>;
        const value = assertion[name];
        // Called on the assertion it came from (chai's methods are proxies: binding them reads properties it refuses).
        return typeof value === 'function' ? (...args: unknown[]) => (assertion[name] as (...a: unknown[]) => unknown)(...args) : value;
      },
    });
  },
}) as typeof vitestExpect;
