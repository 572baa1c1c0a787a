import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ConversationMessages } from '../../contract/chat';
import { UNKNOWN_STREAM_ERROR } from '../../contract/chat-constants';
import { errorMarker } from '../../shared/markers';
import { startChatServer, type ChatServer } from './helpers/chat-fixtures';
import { dbKind } from './helpers/test-app';

// A server-side bug, simulated: composing the system prompt throws when the flag is up.
const fault = vi.hoisted(() => ({ on: false }));
vi.mock('../../server/services/organisation/system-prompt', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../server/services/organisation/system-prompt')>();
  return {
    ...original,
    composeSystemPrompt: (...args: Parameters<typeof original.composeSystemPrompt>) => {
      if (fault.on) return Promise.reject(new TypeError('simulated bug'));
      return original.composeSystemPrompt(...args);
    },
  };
});

describe(`an unexpected server error while answering (${dbKind})`, () => {
  let s: ChatServer;
  beforeAll(async () => {
    s = await startChatServer();
  });
  afterAll(() => s.close());

  it("ends the stream with an 'unknown' error event and done, saves the reply as an error, frees the conversation", async () => {
    fault.on = true;
    const reply = await s.ask({ conversation_id: null, message: 'Trigger the bug' }).finally(() => {
      fault.on = false;
    });
    expect(reply.errors).toEqual([{ type: 'unknown', message: UNKNOWN_STREAM_ERROR }]);
    expect(reply.order.slice(-2)).toEqual(['error', 'done']);
    expect(reply.text).toBe(errorMarker('llm', UNKNOWN_STREAM_ERROR));

    const res = await s.api<ConversationMessages>('GET', `/chat/conversations/${reply.control.conversation_id}/messages`);
    expect(res.body.data.messages.map((m) => [m.sender, m.status])).toEqual([
      ['user', 'complete'],
      ['Assistant', 'error'],
    ]);
    // No model was called, so nothing was spent.
    const usage = await s.db.selectFrom('usage_logs').select('id').where('message_id', '=', reply.control.message_id).execute();
    expect(usage).toEqual([]);

    const next = await s.ask({ conversation_id: reply.control.conversation_id, message: 'Works again?' });
    expect(next.errors).toEqual([]);
  });
});
