import { describe, expect, it } from 'vitest';
import { createMemoryStreamHub, type ReplyEvent } from '../../server/platform/stream-hub';

const follow = (events: ReplyEvent[]) => ({ onEvent: (e: ReplyEvent) => events.push(e), onEnd: () => events.push({ type: 'error', error: { type: 'unknown', message: 'END' } }) });
const textOf = (events: ReplyEvent[]) => events.map((e) => (e.type === 'delta' ? e.text : '')).join('');

describe('the in-memory stream hub', () => {
  it('delivers each delta live, and replays the same text (deltas joined) to a late subscriber', () => {
    const hub = createMemoryStreamHub();
    hub.open('s');
    const live: ReplyEvent[] = [];
    hub.subscribe('s', follow(live));
    for (const text of ['One', ' two', ' three']) hub.publish('s', { type: 'delta', text });
    const late: ReplyEvent[] = [];
    hub.subscribe('s', follow(late));
    hub.publish('s', { type: 'delta', text: ' four' });
    hub.publish('s', { type: 'error', error: { type: 'llm', message: 'x' } });
    hub.publish('s', { type: 'delta', text: ' five' });
    hub.publish('s', { type: 'done', done: { message_id: 'm', usage: { prompt_tokens: 1, completion_tokens: 2 }, stopped: false } });
    hub.close('s');

    expect(live.filter((e) => e.type === 'delta')).toHaveLength(5);
    expect(textOf(live)).toBe('One two three four five');
    expect(late[0]).toEqual({ type: 'delta', text: 'One two three' });
    expect(textOf(late)).toBe('One two three four five');

    const after: ReplyEvent[] = [];
    hub.subscribe('s', follow(after));
    expect(after.map((e) => e.type)).toEqual(['delta', 'error', 'delta', 'done', 'error']);
    expect(textOf(after)).toBe('One two three four five');
    expect(after.at(-1)).toEqual({ type: 'error', error: { type: 'unknown', message: 'END' } });
  });
});
