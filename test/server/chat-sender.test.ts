import { describe, expect, it } from 'vitest';
import { chatMessage, sender } from '../../contract/chat';
import type { MessageRecord } from '../../server/db/repositories/messages';
import { toChatMessage } from '../../server/services/chat/chat';

const record = (value: string): MessageRecord =>
  ({
    id: 'm1',
    conversation_id: 'c1',
    user_id: 'u1',
    sender: value,
    content: 'hello',
    status: 'complete',
    seq: 2,
    created_at: '2026-01-01T00:00:00.000Z',
  }) as MessageRecord;

describe("the sender 'assistant'", () => {
  it("reads as 'Assistant' through the contract (the SPA parses responses with it)", () => {
    expect(sender.parse('assistant')).toBe('Assistant');
    expect(sender.parse('Assistant')).toBe('Assistant');
    expect(sender.parse('user')).toBe('user');
    expect(sender.safeParse('robot').success).toBe(false);
    expect(chatMessage.parse({ ...toChatMessage(record('Assistant')), sender: 'assistant' }).sender).toBe('Assistant');
  });

  it("is mapped wherever the server reads messages", () => {
    expect(toChatMessage(record('assistant')).sender).toBe('Assistant');
    expect(toChatMessage(record('user')).sender).toBe('user');
  });
});
