import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAVE_CHARS, SAVE_INTERVAL_MS } from '../../server/services/chat/reply-writer';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { startFakeOpenAi, type FakeOpenAi } from './helpers/fake-openai';
import { FAST_CHUNKS, FAST_DELAY_MS, SLOW_CHUNKS, SLOW_DELAY_MS, streamAndWatch, type Watched } from './helpers/reply-save-watch';
import { dbKind } from './helpers/test-app';

// How far behind the reader the saves are (at most SAVE_INTERVAL_MS or SAVE_CHARS) is a wall-clock goal, which a
// busy machine or parallel test files broke: `npm run bench -- reply-saves` measures and prints it. The save policy
// itself is tested with a fake clock in test/unit/reply-saves.test.ts; here, what is saved while it streams.
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

  function expectSavedAsItStreams(watched: Watched, chunks: string[]) {
    expect(watched.text).toBe(chunks.join(''));
    expect(watched.saved.length).toBeGreaterThan(20);
    // Saved as it was sent (the save may run ahead of the reader, never apart from what it is sent).
    for (const content of watched.contents) expect(watched.text.startsWith(content)).toBe(true);
    // Saved in several steps while streaming, not only at the end.
    expect([...watched.contents].filter((c) => c.length > 0 && c.length < watched.text.length).length).toBeGreaterThan(1);
  }

  it(`saves a reply as it streams (every ${SAVE_INTERVAL_MS} ms or ${SAVE_CHARS} characters)`, async () => {
    expectSavedAsItStreams(await streamAndWatch(s, model, SLOW_CHUNKS, SLOW_DELAY_MS), SLOW_CHUNKS);
    expectSavedAsItStreams(await streamAndWatch(s, model, FAST_CHUNKS, FAST_DELAY_MS), FAST_CHUNKS);
  });
});
