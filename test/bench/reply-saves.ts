import { SAVE_CHARS, SAVE_INTERVAL_MS } from '../../server/services/chat/reply-writer';
import { startChatServer } from '../server/helpers/chat-fixtures';
import { startFakeOpenAi } from '../server/helpers/fake-openai';
import { FAST_CHUNKS, FAST_DELAY_MS, lateReadings, SLOW_CHUNKS, SLOW_DELAY_MS, streamAndWatch } from '../server/helpers/reply-save-watch';

/**
 * How far a streaming reply's saved text lags behind what its reader was sent (moved here from
 * test/server/reply-save-lag.test.ts, where parallel files and a busy machine made the wall-clock goal flaky).
 * Goal: no reading of the row more than SAVE_INTERVAL_MS or SAVE_CHARS behind, whichever is less.
 */
export async function measureReplySaves() {
  const model = await startFakeOpenAi();
  const s = await startChatServer({ env: { LLM_BASE_URL: model.baseUrl, LLM_API_KEY: 'sk-test-0123456789', LLM_MODEL: 'gpt-4o-mini' } });
  try {
    const runs = [];
    for (const [name, chunks, delay] of [
      ['400 characters a second', SLOW_CHUNKS, SLOW_DELAY_MS],
      ['5,000 characters a second', FAST_CHUNKS, FAST_DELAY_MS],
    ] as const) {
      const watched = await streamAndWatch(s, model, chunks, delay);
      runs.push({ name, readings: watched.saved.length, late: lateReadings(watched) });
    }
    return runs;
  } finally {
    await s.close();
    await model.close();
  }
}

export function printReplySaves(runs: Awaited<ReturnType<typeof measureReplySaves>>) {
  console.log(`\nA streaming reply's saves (goal: no reading more than ${SAVE_INTERVAL_MS} ms or ${SAVE_CHARS} characters behind what was sent):`);
  for (const r of runs) {
    const worst = r.late.reduce((m, l) => Math.max(m, l.owed - l.saved), 0);
    console.log(`  ${r.name.padEnd(26)} ${r.readings} readings, ${r.late.length} late${r.late.length ? ` (worst ${worst} characters short)` : ''} — ${r.late.length === 0 ? 'met' : 'NOT met'}`);
  }
}
