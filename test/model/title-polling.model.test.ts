import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type EventFrom, type SnapshotFrom } from 'xstate';
import {
  MAX_TITLE_POLL_ATTEMPTS,
  TITLE_POLL_INTERVAL_MS,
  titlePollingMachine,
  type TitlePollingEmitted,
} from '../../machines/title-polling.machine';
import { DEFAULT_CONVERSATION_TITLE } from '../../contract/chat-constants';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof titlePollingMachine>;
type Ev = EventFrom<typeof titlePollingMachine>;

const AFTER = 'xstate.after.TITLE_POLL_INTERVAL.titlePolling.waiting';

let fetches: Array<{ conversationId: string }> = [];
let emitted: TitlePollingEmitted[] = [];
let emittedSeen = 0;
let prev: Snap | null = null;

const testMachine = () =>
  titlePollingMachine.provide({
    actors: {
      fetchTitle: fromPromise<string, { conversationId: string }>(({ input }) => {
        fetches.push(input);
        return new Promise(() => {});
      }),
    },
  });

const eventsFor = (s: Snap): Ev[] => {
  switch (s.value) {
    case 'waiting':
      return [{ type: AFTER } as never, { type: 'polling.stop' }];
    case 'fetching':
      return [
        { type: 'xstate.done.actor.fetchTitle', output: DEFAULT_CONVERSATION_TITLE } as never,
        { type: 'xstate.done.actor.fetchTitle', output: '  ' } as never,
        { type: 'xstate.done.actor.fetchTitle', output: 'Trip to Penang' } as never,
        { type: 'xstate.error.actor.fetchTitle', error: new Error('Network Error') } as never,
        { type: 'polling.stop' },
      ];
    default:
      return [];
  }
};

/** Checks shared by every state: tags, attempts bound, exactly the expected emitted events. */
const check = (fn: (s: Snap, e: { type: string } | null, p: Snap | null) => void) => (s: Snap, e: { type: string } | null) => {
  const p = prev;
  const fresh = emitted.slice(emittedSeen);
  emittedSeen = emitted.length;
  expect(s.hasTag('polling')).toBe(s.matches('waiting') || s.matches('fetching'));
  expect(s.hasTag('fetching')).toBe(s.matches('fetching'));
  expect(s.context.attempts).toBeGreaterThanOrEqual(0);
  expect(s.context.attempts).toBeLessThanOrEqual(MAX_TITLE_POLL_ATTEMPTS);
  expect(s.context.conversationId).toBe('c1');
  if (p && e && (e.type === 'xstate.done.actor.fetchTitle' || e.type === 'xstate.error.actor.fetchTitle')) {
    // Every finished fetch, failed or not, is one attempt.
    expect(s.context.attempts).toBe(p.context.attempts + 1);
  }
  if (e?.type === 'xstate.done.actor.fetchTitle' && s.matches('changed')) {
    expect(fresh).toEqual([{ type: 'title.changed', conversationId: 'c1', title: (e as unknown as { output: string }).output }]);
  } else {
    expect(fresh).toEqual([]);
  }
  fn(s, e, p);
  prev = s;
};

runModelTest({
  name: 'title-polling',
  machine: titlePollingMachine,
  testMachine,
  onActor: (actor) => {
    fetches = [];
    emitted = [];
    emittedSeen = 0;
    prev = null;
    actor.on('*', (ev) => emitted.push(ev));
  },
  inputs: [
    { conversationId: 'c1', title: DEFAULT_CONVERSATION_TITLE },
    { conversationId: 'c1', title: 'Already named' },
  ],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, s.context.attempts]),
  // Attempts make the graph a 20-step ladder with three ways down each rung: simple paths over it would be 3^20.
  simpleKey: (s) => JSON.stringify(s.value),
  edgeKeys: true,
  checks: {
    waiting: check((s, e) => {
      expect(s.status).toBe('active');
      expect(s.context.attempts).toBeLessThan(MAX_TITLE_POLL_ATTEMPTS);
      expect(s.children.fetchTitle).toBeUndefined();
      if (e?.type === 'xstate.error.actor.fetchTitle') expect(s.context.lastError).toBe('Network Error');
      if (e?.type === 'xstate.done.actor.fetchTitle') expect(s.context.lastError).toBeNull();
    }),
    fetching: check((s) => {
      expect(s.status).toBe('active');
      expect(s.children.fetchTitle).toBeDefined();
      expect(fetches.at(-1)).toEqual({ conversationId: 'c1' });
      // One fetch per attempt: the fetches so far are the attempts done plus this one.
      expect(fetches.length).toBe(s.context.attempts + 1);
    }),
    changed: check((s, e) => {
      expect(s.status).toBe('done');
      expect(s.output).toEqual({ title: s.context.title, changed: true });
      if (e === null) expect(fetches).toEqual([]);
      else expect(s.context.title).toBe('Trip to Penang');
    }),
    gaveUp: check((s) => {
      expect(s.status).toBe('done');
      expect(s.context.attempts).toBe(MAX_TITLE_POLL_ATTEMPTS);
      expect(fetches.length).toBe(MAX_TITLE_POLL_ATTEMPTS);
      expect(s.output?.changed).toBe(false);
    }),
    stopped: check((s, e) => {
      expect(s.status).toBe('done');
      expect(e?.type).toBe('polling.stop');
      expect(s.children.fetchTitle).toBeUndefined();
    }),
  },
});

describe('title-polling (examples)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const start = (titles: Array<string | Error>, title = DEFAULT_CONVERSATION_TITLE) => {
    const calls: string[] = [];
    const machine = titlePollingMachine.provide({
      actors: {
        fetchTitle: fromPromise<string, { conversationId: string }>(async ({ input }) => {
          calls.push(input.conversationId);
          const next = titles.shift() ?? DEFAULT_CONVERSATION_TITLE;
          if (next instanceof Error) throw next;
          return next;
        }),
      },
    });
    const actor = createActor(machine, { input: { conversationId: 'c7', title } });
    const out: TitlePollingEmitted[] = [];
    actor.on('*', (ev) => out.push(ev));
    actor.start();
    return { actor, calls, out };
  };

  it('keeps the spec constants', () => {
    expect(MAX_TITLE_POLL_ATTEMPTS).toBe(20);
    expect(TITLE_POLL_INTERVAL_MS).toBe(20000);
  });

  it('fetches every 20 seconds and emits title.changed once the server named it', async () => {
    vi.useFakeTimers();
    const { actor, calls, out } = start([DEFAULT_CONVERSATION_TITLE, new Error('Network Error'), 'Trip to Penang']);
    await vi.advanceTimersByTimeAsync(19999);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual(['c7']);
    await vi.advanceTimersByTimeAsync(40000);
    expect(calls.length).toBe(3);
    expect(out).toEqual([{ type: 'title.changed', conversationId: 'c7', title: 'Trip to Penang' }]);
    expect(actor.getSnapshot().value).toBe('changed');
    expect(actor.getSnapshot().context.attempts).toBe(3);
  });

  it('gives up after 20 attempts, failed fetches included', async () => {
    vi.useFakeTimers();
    const { actor, calls, out } = start([new Error('500'), new Error('500')]);
    await vi.advanceTimersByTimeAsync(20000 * 25);
    expect(calls.length).toBe(20);
    expect(actor.getSnapshot().value).toBe('gaveUp');
    expect(actor.getSnapshot().status).toBe('done');
    expect(out).toEqual([]);
  });

  it('polling.stop ends it at once, and an already named conversation is never polled', async () => {
    vi.useFakeTimers();
    const { actor, calls } = start([]);
    await vi.advanceTimersByTimeAsync(20000);
    actor.send({ type: 'polling.stop' });
    expect(actor.getSnapshot().value).toBe('stopped');
    await vi.advanceTimersByTimeAsync(100000);
    expect(calls.length).toBe(1);

    const named = start([], 'Budget 2025');
    expect(named.actor.getSnapshot().value).toBe('changed');
    expect(named.out).toEqual([]);
    await vi.advanceTimersByTimeAsync(100000);
    expect(named.calls).toEqual([]);
  });
});
