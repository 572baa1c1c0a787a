import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationList } from '../../contract/chat';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { dbKind } from './helpers/test-app';

describe(`questions per person per minute (${dbKind})`, () => {
  let s: ChatServer;
  beforeAll(async () => {
    s = await startChatServer({ env: { MESSAGE_RATE_LIMIT_PER_USER: '2' } });
  });
  afterAll(() => s.close());

  it('answers 429 with Retry-After past the limit, before any stream and without saving anything', async () => {
    await s.ask({ conversation_id: null, message: 'First question' });
    await s.ask({ conversation_id: null, message: 'Second question' });
    const res = await s.send({ conversation_id: null, message: 'Third question' });
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await res.json()).detail).toBe('Too many messages. Please try again in 1 minute.');
    const list = (await s.api<ConversationList>('GET', '/chat/conversations')).body.data;
    expect(list.total).toBe(2);
  });

  it('counts each person separately', async () => {
    const other = await s.send({ conversation_id: null, message: 'A colleague asks' }, { token: s.otherToken });
    expect(other.status).toBe(200);
    await other.body?.cancel();
  });
});
