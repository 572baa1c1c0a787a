import { describe, it, vi } from 'vitest';
import { expect } from './support/expect';
import { createActor, type EventFrom, type SnapshotFrom } from 'xstate';
import type { ChatTools } from '../../contract/chat-tools';
import { WEB_BROWSING_UNAVAILABLE } from '../../contract/chat-tools';
import { chatToolsMachine, TOOLS_MAX_ATTEMPTS, TOOLS_RETRY_MS } from '../../machines/chat-tools.machine';
import { defineChatToolsMachine } from '../../src/features/chat/chat-tools-actors';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof chatToolsMachine>;
type Ev = EventFrom<typeof chatToolsMachine>;

const AFTER = 'xstate.after.TOOLS_RETRY_MS.chatTools.failed';
const NO_SEARCH: ChatTools = { web_browsing: { available: false, reason: WEB_BROWSING_UNAVAILABLE }, image_generation: { demo: true } };

let loads = 0;
let prev: Snap | null = null;

const testMachine = () => chatToolsMachine.provide({ actors: { loadTools: pendingActor<ChatTools, void>(() => (loads += 1)) } });

function eventsFor(s: Snap): Ev[] {
  if (s.matches('loading')) {
    return [
      { type: 'xstate.done.actor.loadTools', output: NO_SEARCH, actorId: 'loadTools' } as never,
      { type: 'xstate.error.actor.loadTools', error: new Error('HTTP 500'), actorId: 'loadTools' } as never,
    ];
  }
  if (s.matches('failed')) return [{ type: AFTER } as never];
  return [];
}

function check(s: Snap, e: { type: string } | null) {
  // One load per entry into loading; the answer is kept, nothing else sets it.
  expect(loads).toBe(s.context.attempts);
  expect(s.context.attempts).toBeLessThanOrEqual(TOOLS_MAX_ATTEMPTS);
  expect(Boolean(s.children.loadTools)).toBe(s.matches('loading'));
  if (s.matches('loaded')) expect(s.context.tools).toEqual(NO_SEARCH);
  else expect(s.context.tools).toBeNull();
  if (e?.type === AFTER) {
    // Tried again only while attempts remain.
    expect(s.matches('loading')).toBe(prev!.context.attempts < TOOLS_MAX_ATTEMPTS);
  }
}

runModelTest({
  name: 'chat-tools',
  machine: chatToolsMachine,
  testMachine,
  onActor: () => {
    loads = 0;
    prev = null;
  },
  inputs: [undefined as never],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, s.context.attempts]),
  checks: Object.fromEntries(
    ['loading', 'failed', 'loaded'].map((state) => [
      state,
      (s: Snap, e: { type: string } | null) => {
        check(s, e);
        prev = s;
      },
    ]),
  ),
});

describe('chat-tools (examples)', () => {
  it('loads GET /chat/tools through the api, retrying a failed load after 5 s', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const actor = createActor(
        defineChatToolsMachine({
          api: {
            fetchChatTools: async () => {
              calls += 1;
              if (calls === 1) throw new Error('offline');
              return NO_SEARCH;
            },
          },
        }),
      ).start();
      await vi.advanceTimersByTimeAsync(0);
      expect(actor.getSnapshot().value).toBe('failed');
      await vi.advanceTimersByTimeAsync(TOOLS_RETRY_MS);
      expect(actor.getSnapshot().value).toBe('loaded');
      expect(actor.getSnapshot().context.tools).toEqual(NO_SEARCH);
      expect(calls).toBe(2);
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
