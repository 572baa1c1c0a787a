import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type EventFrom, type SnapshotFrom } from 'xstate';
import {
  COPIED_MS,
  COPY_LINK_FAILED,
  LINK_COPIED,
  SHARE_LINK_FAILED,
  shareMachine,
  type ShareInput,
} from '../../machines/share.machine';
import { notice, type Notice } from '../../machines/notice';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof shareMachine>;
type Ev = EventFrom<typeof shareMachine>;

const AFTER = 'xstate.after.COPIED.share.ready.copied';
const URL = 'http://localhost:8080/share/AbCdEfGhIjKlMnOpQrStUvWx';

let linkRequests: ShareInput[] = [];
let copies: { text: string }[] = [];
let emitted: Notice[] = [];
let emittedSeen = 0;
let prev: Snap | null = null;

const testMachine = () =>
  shareMachine.provide({
    actors: {
      createLink: pendingActor<string, ShareInput>((input) => linkRequests.push(input)),
      copyText: pendingActor<void, { text: string }>((input) => copies.push(input)),
    },
  });

const eventsFor = (s: Snap): Ev[] => {
  if (s.matches('loading')) {
    return [
      { type: 'xstate.done.actor.createLink', output: URL, actorId: 'createLink' } as never,
      { type: 'xstate.error.actor.createLink', error: new Error('Conversation not found'), actorId: 'createLink' } as never,
      { type: 'share.copy' },
    ];
  }
  if (s.matches('failed')) return [{ type: 'share.retry' }, { type: 'share.copy' }];
  if (s.matches({ ready: 'copying' })) {
    return [
      { type: 'xstate.done.actor.copyText', output: undefined, actorId: 'copyText' } as never,
      { type: 'xstate.error.actor.copyText', error: new Error('NotAllowedError'), actorId: 'copyText' } as never,
      { type: 'share.copy' },
    ];
  }
  if (s.matches({ ready: 'copied' })) return [{ type: AFTER } as never, { type: 'share.copy' }];
  return [{ type: 'share.copy' }, { type: 'share.retry' }];
};

/** What every state must satisfy, and exactly the toasts of the step. */
const check = (fn: (s: Snap, e: { type: string } | null, p: Snap | null) => void) => (s: Snap, e: { type: string } | null) => {
  const p = prev;
  const fresh = emitted.slice(emittedSeen);
  emittedSeen = emitted.length;
  expect(s.hasTag('loading')).toBe(s.matches('loading'));
  expect(s.hasTag('copied')).toBe(s.matches({ ready: 'copied' }));
  // The link exists exactly once the server gave it; a retry asks again for the same conversation.
  expect(s.context.url !== null).toBe(s.matches('ready'));
  expect(Boolean(s.children.createLink)).toBe(s.matches('loading'));
  expect(Boolean(s.children.copyText)).toBe(s.matches({ ready: 'copying' }));
  if (s.matches('loading')) expect(linkRequests.at(-1)).toEqual({ conversationId: 'c1' });
  if (s.matches({ ready: 'copying' }) && !p?.matches({ ready: 'copying' })) expect(copies.at(-1)).toEqual({ text: URL });
  // Copy only once there is a link, and not again while the clipboard answers; retry only after a failure.
  expect(s.can({ type: 'share.copy' })).toBe(s.matches('ready') && !s.matches({ ready: 'copying' }));
  expect(s.can({ type: 'share.retry' })).toBe(s.matches('failed'));
  const expected: Notice[] = [];
  if (e?.type === 'xstate.done.actor.copyText') expected.push(notice('success', LINK_COPIED));
  if (e?.type === 'xstate.error.actor.copyText') expected.push(notice('error', COPY_LINK_FAILED));
  expect(fresh).toEqual(expected);
  fn(s, e, p);
  prev = s;
};

runModelTest({
  name: 'share',
  machine: shareMachine,
  testMachine,
  onActor: (actor) => {
    linkRequests = [];
    copies = [];
    emitted = [];
    emittedSeen = 0;
    prev = null;
    actor.on('*', (ev) => emitted.push(ev as Notice));
  },
  inputs: [{ conversationId: 'c1' }],
  events: eventsFor,
  key: (s) => JSON.stringify(s.value),
  edgeKeys: true,
  checks: {
    loading: check((s, e, p) => {
      expect(s.context.url).toBeNull();
      if (e?.type === 'share.retry') expect(p?.matches('failed')).toBe(true);
    }),
    failed: check(() => {}),
    ready: check((s, e) => {
      expect(s.context.url).toBe(URL);
      if (e?.type === AFTER) expect(s.matches({ ready: 'idle' })).toBe(true);
    }),
  },
});

describe('share machine with timers', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says copied for two seconds after a copy, then the button is back', async () => {
    vi.useFakeTimers();
    const actor = createActor(
      shareMachine.provide({
        actors: {
          createLink: fromPromise(async () => URL),
          copyText: fromPromise<void, { text: string }>(async () => {}),
        },
      }),
      { input: { conversationId: 'c1' } },
    ).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context.url).toBe(URL);
    actor.send({ type: 'share.copy' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().hasTag('copied')).toBe(true);
    await vi.advanceTimersByTimeAsync(COPIED_MS - 1);
    expect(actor.getSnapshot().hasTag('copied')).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().hasTag('copied')).toBe(false);
    actor.stop();
  });

  it('keeps the spec texts', () => {
    expect([SHARE_LINK_FAILED, LINK_COPIED, COPY_LINK_FAILED, COPIED_MS]).toEqual([
      'Failed to get share link',
      'Link copied to clipboard',
      'Failed to copy link',
      2000,
    ]);
  });
});
