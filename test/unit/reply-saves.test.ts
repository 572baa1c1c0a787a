import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createReplySaves, SAVE_CHARS, SAVE_INTERVAL_MS, type SaveBatch } from '../../server/services/chat/reply-writer';

/** A saveBatch whose statements end when the test says so. */
function recordingBatch() {
  const calls: Array<{ replies: Array<{ id: string; content: string }>; done: () => void; fail: (err: Error) => void }> = [];
  const save: SaveBatch = (replies) =>
    new Promise<void>((resolve, reject) => calls.push({ replies: [...replies], done: resolve, fail: reject }));
  return { calls, save };
}

const log = { warn: vi.fn() } as unknown as FastifyBaseLogger;
const text = (n: number) => 'x'.repeat(n);

describe('when a streaming reply is saved (time or size, whichever first)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('saves a slow reply once the interval has passed since its last save, with all its text by then', async () => {
    const { calls, save } = recordingBatch();
    const saves = createReplySaves(save, log);
    saves.save('a', 'Hello');
    await vi.advanceTimersByTimeAsync(100);
    saves.save('a', 'Hello there');
    await vi.advanceTimersByTimeAsync(SAVE_INTERVAL_MS - 101);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((c) => c.replies)).toEqual([[{ id: 'a', content: 'Hello there' }]]);
    calls[0].done();
    // The next save waits for the interval again, counted from the last one.
    saves.save('a', 'Hello there, world');
    await vi.advanceTimersByTimeAsync(SAVE_INTERVAL_MS - 1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls[1].replies).toEqual([{ id: 'a', content: 'Hello there, world' }]);
  });

  it(`saves a fast reply as soon as ${SAVE_CHARS} characters wait, without waiting for the interval`, async () => {
    const { calls, save } = recordingBatch();
    const saves = createReplySaves(save, log);
    saves.save('a', text(SAVE_CHARS - 1));
    await vi.advanceTimersByTimeAsync(10);
    expect(calls).toHaveLength(0);
    saves.save('a', text(SAVE_CHARS));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((c) => c.replies[0].content.length)).toEqual([SAVE_CHARS]);
    calls[0].done();
    saves.save('a', text(2 * SAVE_CHARS - 1));
    await vi.advanceTimersByTimeAsync(10);
    expect(calls).toHaveLength(1);
    saves.save('a', text(2 * SAVE_CHARS));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((c) => c.replies[0].content.length)).toEqual([SAVE_CHARS, 2 * SAVE_CHARS]);
  });

  it('never has two saves of one reply in flight: what came meanwhile goes in one save after the first ends', async () => {
    const { calls, save } = recordingBatch();
    const saves = createReplySaves(save, log);
    saves.save('a', text(SAVE_CHARS));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    saves.save('a', text(2 * SAVE_CHARS));
    saves.save('a', text(3 * SAVE_CHARS));
    await vi.advanceTimersByTimeAsync(SAVE_INTERVAL_MS * 4);
    expect(calls).toHaveLength(1);
    calls[0].done();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((c) => c.replies[0].content.length)).toEqual([SAVE_CHARS, 3 * SAVE_CHARS]);
  });

  it('saves replies that fall due together in one statement, and leaves out a discarded one', async () => {
    const { calls, save } = recordingBatch();
    const saves = createReplySaves(save, log);
    saves.save('a', 'one');
    await vi.advanceTimersByTimeAsync(20);
    saves.save('b', 'two');
    saves.save('c', 'three');
    saves.discard('c');
    await vi.advanceTimersByTimeAsync(SAVE_INTERVAL_MS - 20);
    expect(calls.map((c) => c.replies)).toEqual([
      [
        { id: 'a', content: 'one' },
        { id: 'b', content: 'two' },
      ],
    ]);
    calls[0].done();
    await vi.advanceTimersByTimeAsync(SAVE_INTERVAL_MS * 4);
    expect(calls).toHaveLength(1);
  });

  it('tries a failed save again after the interval, not at once', async () => {
    const { calls, save } = recordingBatch();
    const saves = createReplySaves(save, log);
    saves.save('a', text(SAVE_CHARS));
    await vi.advanceTimersByTimeAsync(0);
    calls[0].fail(new Error('database busy'));
    await vi.advanceTimersByTimeAsync(SAVE_INTERVAL_MS - 1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((c) => c.replies[0].content.length)).toEqual([SAVE_CHARS, SAVE_CHARS]);
  });
});
