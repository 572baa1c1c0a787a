import { afterEach, describe, it, vi } from 'vitest';
import { expect } from './support/expect';
import { createActor, type EventFrom, type SnapshotFrom } from 'xstate';
import {
  isNamedTitle,
  MAX_TITLE_POLL_ATTEMPTS,
  TITLE_POLL_INTERVAL_MS,
  titlePollInput,
  titlePollMachine,
  type TitlePollCheckInput,
  type TitlePollOutput,
  type TitlePollProgress,
} from '../../machines/title-poll.machine';
import { DEFAULT_CONVERSATION_TITLE } from '../../contract/chat-constants';
import type { ConversationList } from '../../contract/chat';
import { defineTitlePollActors } from '../../src/features/chat/chat-send-actors';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof titlePollMachine>;
type Ev = EventFrom<typeof titlePollMachine>;

const AFTER = 'xstate.after.POLL_INTERVAL.poll.waiting';
const NAMED = 'Trip to Penang';

let fetches: TitlePollCheckInput[] = [];
let emitted: TitlePollProgress[] = [];
let emittedSeen = 0;
let prev: Snap | null = null;

const testMachine = () =>
  titlePollMachine.provide({
    actors: {
      check: pendingActor<string, TitlePollCheckInput>((input) => fetches.push(input)),
    },
  });

const eventsFor = (s: Snap): Ev[] => {
  switch (s.value) {
    case 'waiting':
      return [{ type: AFTER } as never, { type: 'poll.stop' }];
    case 'checking':
      return [
        { type: 'xstate.done.actor.check', output: DEFAULT_CONVERSATION_TITLE, actorId: 'check' },
        { type: 'xstate.done.actor.check', output: '  ', actorId: 'check' },
        { type: 'xstate.done.actor.check', output: NAMED, actorId: 'check' },
        { type: 'xstate.error.actor.check', error: new Error('Network Error'), actorId: 'check' },
        { type: 'poll.stop' },
      ];
    default:
      return [];
  }
};

const outputOf = (s: Snap) => s.output as TitlePollOutput;

/** Checks shared by every state: tags, the attempts bound, one attempt per finished fetch, exactly the reported events. */
const check = (fn: (s: Snap, e: { type: string } | null, p: Snap | null) => void) => (s: Snap, e: { type: string } | null) => {
  const p = prev;
  const fresh = emitted.slice(emittedSeen);
  emittedSeen = emitted.length;
  expect(s.hasTag('polling')).toBe(s.matches('waiting') || s.matches('checking'));
  expect(s.hasTag('checking')).toBe(s.matches('checking'));
  expect(s.context.attempts).toBeLessThanOrEqual(MAX_TITLE_POLL_ATTEMPTS);
  expect(s.context.checkInput).toEqual({ conversationId: 'c1' });
  // Every finished fetch, failed or not, is one attempt.
  const finishedFetch = e?.type === 'xstate.done.actor.check' || e?.type === 'xstate.error.actor.check';
  if (p) expect(s.context.attempts).toBe(p.context.attempts + (finishedFetch ? 1 : 0));
  if (e?.type === 'xstate.done.actor.check') expect(fresh).toEqual([{ type: 'poll.progress', value: (e as unknown as { output: unknown }).output }]);
  else expect(fresh).toEqual([]);
  fn(s, e, p);
  prev = s;
};

runModelTest({
  name: 'title-poll',
  machine: titlePollMachine,
  testMachine,
  onActor: (actor) => {
    fetches = [];
    emitted = [];
    emittedSeen = 0;
    prev = null;
    actor.on('*', (ev) => emitted.push(ev as TitlePollProgress));
  },
  // The second input is not one a screen uses: it reaches the poll's `failed` state, so that the specialised
  // machine's coverage is complete (a title poll itself never stops on a failed fetch; see the examples).
  inputs: [titlePollInput('c1'), { ...titlePollInput('c1'), stopOnError: true }],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, s.context.attempts]),
  // Attempts make the graph a 20-step ladder with three ways down each rung: simple paths over it would be 3^20.
  simpleKey: (s) => JSON.stringify(s.value),
  edgeKeys: true,
  checks: {
    waiting: check((s, e) => {
      expect(s.status).toBe('active');
      // A failed fetch counts as an attempt and the poll goes on.
      if (e?.type === 'xstate.error.actor.check') expect(s.context.stopOnError).toBe(false);
      expect(s.context.attempts).toBeLessThan(MAX_TITLE_POLL_ATTEMPTS);
      expect(s.children.check).toBeUndefined();
      if (s.context.value !== undefined) expect(isNamedTitle(s.context.value as string)).toBe(false);
    }),
    checking: check((s) => {
      expect(s.status).toBe('active');
      expect(s.children.check).toBeDefined();
      expect(fetches.at(-1)).toEqual({ conversationId: 'c1' });
      // One fetch per attempt: the fetches so far are the attempts done plus this one.
      expect(fetches.length).toBe(s.context.attempts + 1);
    }),
    finished: check((s) => {
      expect(s.status).toBe('done');
      // The named title ends it, whatever attempt it came on.
      expect(outputOf(s)).toMatchObject({ status: 'finished', value: NAMED });
    }),
    gaveUp: check((s) => {
      expect(s.status).toBe('done');
      expect(s.context.attempts).toBe(MAX_TITLE_POLL_ATTEMPTS);
      expect(fetches.length).toBe(MAX_TITLE_POLL_ATTEMPTS);
      expect(outputOf(s).status).toBe('gaveUp');
    }),
    failed: check((s, e) => {
      expect(s.context.stopOnError).toBe(true);
      expect(e?.type).toBe('xstate.error.actor.check');
      expect(outputOf(s).status).toBe('failed');
    }),
    stopped: check((s, e) => {
      expect(s.status).toBe('done');
      expect(e?.type).toBe('poll.stop');
      expect(s.children.check).toBeUndefined();
    }),
  },
});

describe('title-poll (examples)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The real check (chat-send-actors.ts) over a fake conversation list. */
  const MISSING = Symbol('missing');
  const start = (titles: Array<string | Error | typeof MISSING>) => {
    const calls: Array<[number, number]> = [];
    const page = (title: string | typeof MISSING): ConversationList => ({
      conversations: [
        { id: 'other', title: 'Other', created_at: '', updated_at: '' },
        ...(title === MISSING ? [] : [{ id: 'c7', title, created_at: '', updated_at: '' }]),
      ],
      page: 1,
      page_size: 10,
      total: 2,
      total_pages: 1,
    });
    const actors = defineTitlePollActors({
      api: {
        fetchConversations: async (p, size) => {
          calls.push([p, size]);
          const next = titles.shift() ?? DEFAULT_CONVERSATION_TITLE;
          if (next instanceof Error) throw next;
          return page(next);
        },
      },
    });
    const actor = createActor(titlePollMachine.provide({ actors }), { input: titlePollInput('c7') });
    const out: TitlePollProgress[] = [];
    actor.on('poll.progress', (ev) => out.push(ev as TitlePollProgress));
    actor.start();
    return { actor, calls, out };
  };

  it('keeps the spec constants', () => {
    expect(MAX_TITLE_POLL_ATTEMPTS).toBe(20);
    expect(TITLE_POLL_INTERVAL_MS).toBe(20000);
    expect(titlePollInput('c7')).toEqual({ intervalMs: 20000, maxAttempts: 20, stopOnError: false, checkInput: { conversationId: 'c7' } });
  });

  it('fetches page 1 every 20 seconds and ends with the title once the server named it', async () => {
    vi.useFakeTimers();
    const { actor, calls, out } = start([DEFAULT_CONVERSATION_TITLE, new Error('Network Error'), NAMED]);
    await vi.advanceTimersByTimeAsync(19999);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([[1, 10]]);
    await vi.advanceTimersByTimeAsync(40000);
    expect(calls.length).toBe(3);
    expect(out.map((e) => e.value)).toEqual([DEFAULT_CONVERSATION_TITLE, NAMED]);
    expect(actor.getSnapshot().output).toEqual({ status: 'finished', value: NAMED, error: null, attempts: 3 });
  });

  it('gives up after 20 attempts, failed fetches included', async () => {
    vi.useFakeTimers();
    const { actor, calls } = start([new Error('500'), new Error('500')]);
    await vi.advanceTimersByTimeAsync(20000 * 25);
    expect(calls.length).toBe(20);
    expect(actor.getSnapshot().output).toMatchObject({ status: 'gaveUp', value: DEFAULT_CONVERSATION_TITLE, attempts: 20 });
  });

  it('a conversation missing from page 1 reads as not named yet; poll.stop ends it at once', async () => {
    vi.useFakeTimers();
    const { actor, calls, out } = start([MISSING]);
    await vi.advanceTimersByTimeAsync(20000);
    expect(out).toEqual([{ type: 'poll.progress', value: DEFAULT_CONVERSATION_TITLE }]);
    actor.send({ type: 'poll.stop' });
    expect(actor.getSnapshot().output).toMatchObject({ status: 'stopped' });
    await vi.advanceTimersByTimeAsync(100000);
    expect(calls.length).toBe(1);
  });

  it('a blank or default title is not a name', () => {
    expect(isNamedTitle(DEFAULT_CONVERSATION_TITLE)).toBe(false);
    expect(isNamedTitle('  ')).toBe(false);
    expect(isNamedTitle(NAMED)).toBe(true);
  });
});
