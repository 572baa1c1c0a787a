import { setTimeout as sleep } from 'node:timers/promises';
import { SAVE_CHARS, SAVE_INTERVAL_MS } from '../../../server/services/chat/reply-writer';
import type { ChatServer } from './chat-fixtures';
import { isTitleRequest, type FakeOpenAi } from './fake-openai';
import { readSse } from './sse';

/**
 * Streams a reply and reads its row again and again meanwhile: used by the server test (what is saved) and by
 * `npm run bench -- reply-saves` (how far behind the reader the saves are, a timing goal that left the pass/fail suite).
 */

/**
 * Time for a save that fell due to be made and committed, and for the stream's last delta to reach the reader
 * (on a busy test machine the timers themselves run late).
 */
const GRACE_MS = 100;

export interface Sample {
  at: number;
  chars: number;
}

export interface Watched {
  /** The reply as the reader got it. */
  text: string;
  /** What the reader had been sent, and when. */
  sent: Sample[];
  /** Each reading of the row while it was streaming. */
  saved: Sample[];
  /** The distinct contents the row had while streaming. */
  contents: Set<string>;
}

/** Characters the reader had been sent by `at`. */
const sentBy = (sent: readonly Sample[], at: number) => sent.findLast((s) => s.at <= at)?.chars ?? 0;

/** Streams `chunks` (one every `delayMs`) and reads the reply's row again and again meanwhile. */
export async function streamAndWatch(s: ChatServer, model: FakeOpenAi, chunks: string[], delayMs: number): Promise<Watched> {
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
  return { text, sent, saved, contents };
}

/** 400 characters a second: the interval comes before the size. */
export const SLOW_CHUNKS = Array.from({ length: 80 }, (_, i) => `${String(i).padStart(3, '0')} words `);
export const SLOW_DELAY_MS = 25;
/** About 5,000 characters a second: SAVE_CHARS come before the interval (a save every 250 ms was 1,250 behind). */
export const FAST_CHUNKS = Array.from({ length: 150 }, (_, i) => `${String(i).padStart(3, '0')} `.padEnd(50, 'fast text '));
export const FAST_DELAY_MS = 10;

/**
 * The readings of the row (started at `at`) that held less than what was sent SAVE_INTERVAL_MS earlier, or all but
 * SAVE_CHARS of what was sent by then, whichever is more (with GRACE_MS for the save to be made): the goal is none.
 */
export function lateReadings({ sent, saved }: Pick<Watched, 'sent' | 'saved'>) {
  return saved
    .map((row) => {
      const byTime = sentBy(sent, row.at - SAVE_INTERVAL_MS - GRACE_MS);
      const bySize = sentBy(sent, row.at - GRACE_MS) - SAVE_CHARS;
      return { at: Math.round(row.at - saved[0].at), saved: row.chars, sent: sentBy(sent, row.at), owed: Math.max(byTime, bySize) };
    })
    .filter((r) => r.saved < r.owed);
}
