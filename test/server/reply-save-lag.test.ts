import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAVE_CHARS, SAVE_INTERVAL_MS } from '../../server/services/reply-writer';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { isTitleRequest, startFakeOpenAi, type FakeOpenAi } from './helpers/fake-openai';
import { readSse } from './helpers/sse';
import { dbKind } from './helpers/test-app';

/**
 * Time for a save that fell due to be made and committed, and for the stream's last delta to reach the reader
 * (on a busy test machine the timers themselves run late).
 */
const GRACE_MS = 100;

interface Sample {
  at: number;
  chars: number;
}

/** Characters the reader had been sent by `at`. */
const sentBy = (sent: readonly Sample[], at: number) => sent.findLast((s) => s.at <= at)?.chars ?? 0;

describe(`a reply's text saved while it streams (${dbKind})`, () => {
  let s: ChatServer;
  let model: FakeOpenAi;
  beforeAll(async () => {
    model = await startFakeOpenAi();
    s = await startChatServer({ env: { LLM_BASE_URL: model.baseUrl, LLM_API_KEY: 'sk-test-0123456789', LLM_MODEL: 'gpt-4o-mini' } });
  });
  afterAll(async () => {
    await s?.close();
    await model?.close();
  });

  /** Streams `chunks` (one every `delayMs`) and reads the reply's row again and again meanwhile. */
  async function streamAndWatch(chunks: string[], delayMs: number) {
    model.respond((r) => (isTitleRequest(r) ? { kind: 'reply', chunks: ['Title'] } : { kind: 'reply', chunks, chunkDelayMs: delayMs }));
    const res = await s.send({ conversation_id: null, message: 'Write at length, please' });
    const events = readSse(res.body!);
    const control = JSON.parse((await events.next()).value!.data) as { message_id: string };
    const sent: Sample[] = [];
    let text = '';
    let ended = false;
    const reading = (async () => {
      for await (const e of { [Symbol.asyncIterator]: () => events }) {
        if (e.event !== 'message') continue;
        text += JSON.parse(e.data) as string;
        sent.push({ at: performance.now(), chars: text.length });
      }
      ended = true;
    })();
    const saved: Sample[] = [];
    const contents = new Set<string>();
    while (!ended) {
      const at = performance.now();
      const row = await s.db.selectFrom('messages').select(['content', 'status']).where('id', '=', control.message_id).executeTakeFirstOrThrow();
      if (row.status === 'streaming') {
        saved.push({ at, chars: row.content.length });
        contents.add(row.content);
      }
      await sleep(10);
    }
    await reading;
    expect(text).toBe(chunks.join(''));
    // Saved as it was sent (the save may run ahead of the reader, never apart from what it is sent).
    for (const content of contents) expect(text.startsWith(content)).toBe(true);
    return { sent, saved };
  }

  /**
   * Each reading of the row (started at `at`) holds at least what was sent SAVE_INTERVAL_MS earlier, or all but
   * SAVE_CHARS of what was sent by then, whichever is more (with GRACE_MS for the save to be made).
   */
  function expectLagWithinOneSave({ sent, saved }: { sent: Sample[]; saved: Sample[] }) {
    expect(saved.length).toBeGreaterThan(20);
    const late = saved
      .map((row) => {
        const byTime = sentBy(sent, row.at - SAVE_INTERVAL_MS - GRACE_MS);
        const bySize = sentBy(sent, row.at - GRACE_MS) - SAVE_CHARS;
        return { at: Math.round(row.at - saved[0].at), saved: row.chars, sent: sentBy(sent, row.at), owed: Math.max(byTime, bySize) };
      })
      .filter((r) => r.saved < r.owed);
    expect(late).toEqual([]);
  }

  it(`saves a reply as it streams: at most one interval (${SAVE_INTERVAL_MS} ms) or ${SAVE_CHARS} characters behind, whichever is less`, async () => {
    // 400 characters a second: the interval comes before the size.
    expectLagWithinOneSave(await streamAndWatch(Array.from({ length: 80 }, (_, i) => `${String(i).padStart(3, '0')} words `), 25));
    // About 5,000 characters a second: SAVE_CHARS come before the interval (a save every 250 ms was 1,250 behind).
    const chunks = Array.from({ length: 150 }, (_, i) => `${String(i).padStart(3, '0')} `.padEnd(50, 'fast text '));
    expectLagWithinOneSave(await streamAndWatch(chunks, 10));
  });
});
