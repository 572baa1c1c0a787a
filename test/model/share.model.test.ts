import { afterEach, describe, it, vi } from 'vitest';
import { expect } from './support/expect';
import { createActor, fromPromise, type EventFrom, type SnapshotFrom } from 'xstate';
import {
  COPIED_MS,
  COPY_LINK_FAILED,
  LINK_COPIED,
  SHARE_LINK_ERROR,
  SHARE_LINK_FAILED,
  SHARING_STOPPED,
  STOP_SHARING_FAILED,
  shareMachine,
  type ShareInput,
} from '../../machines/share.machine';
import type { ShareLink } from '../../contract/shares';
import { loadFailure } from '../../machines/load-failure';
import { notice, type Notice } from '../../machines/notice';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof shareMachine>;
type Ev = EventFrom<typeof shareMachine>;

const AFTER = 'xstate.after.COPIED.share.ready.copied';
const SHARE_ID = 'AbCdEfGhIjKlMnOpQrStUvWx';
const URL = `http://localhost:8080/share/${SHARE_ID}`;
const LINK = { share_url: URL, share_id: SHARE_ID };
// As src/lib/answer-status.ts rejects: the server's sentence and the HTTP status (0: no answer).
const failure = (status: number, detail: string | null) => Object.assign(loadFailure(`HTTP ${status}`, detail), { status });
const NOT_FOUND = failure(404, 'Conversation not found');
const SERVER_FAULT = failure(500, 'Internal Server Error');
const NO_ANSWER = failure(0, null);

let linkRequests: ShareInput[] = [];
let revokes: { shareId: string }[] = [];
let copies: { text: string }[] = [];
let emitted: Notice[] = [];
let emittedSeen = 0;
let prev: Snap | null = null;

const testMachine = () =>
  shareMachine.provide({
    actors: {
      createLink: pendingActor<ShareLink, ShareInput>((input) => linkRequests.push(input)),
      copyText: pendingActor<void, { text: string }>((input) => copies.push(input)),
      revokeLink: pendingActor<unknown, { shareId: string }>((input) => revokes.push(input)),
    },
  });

const statusOf = (e: { type: string } | null) => ((e as { error?: { status?: number } } | null)?.error?.status ?? null);

const eventsFor = (s: Snap): Ev[] => {
  if (s.matches('loading')) {
    return [
      { type: 'xstate.done.actor.createLink', output: LINK, actorId: 'createLink' } as never,
      { type: 'xstate.error.actor.createLink', error: NOT_FOUND, actorId: 'createLink' } as never,
      { type: 'xstate.error.actor.createLink', error: SERVER_FAULT, actorId: 'createLink' } as never,
      { type: 'xstate.error.actor.createLink', error: NO_ANSWER, actorId: 'createLink' } as never,
      { type: 'share.copy' },
    ];
  }
  if (s.matches('failed')) return [{ type: 'share.retry' }, { type: 'share.copy' }, { type: 'share.stop' }];
  if (s.matches('confirmingStop')) return [{ type: 'share.stopConfirm' }, { type: 'share.stopCancel' }, { type: 'share.copy' }];
  if (s.matches('stopping')) {
    return [
      { type: 'xstate.done.actor.revokeLink', output: undefined, actorId: 'revokeLink' } as never,
      { type: 'xstate.error.actor.revokeLink', error: NOT_FOUND, actorId: 'revokeLink' } as never,
      { type: 'xstate.error.actor.revokeLink', error: NO_ANSWER, actorId: 'revokeLink' } as never,
      { type: 'share.stopCancel' },
    ];
  }
  if (s.matches('stopped')) return [{ type: 'share.again' }, { type: 'share.copy' }, { type: 'share.stop' }];
  if (s.matches({ ready: 'copying' })) {
    return [
      { type: 'xstate.done.actor.copyText', output: undefined, actorId: 'copyText' } as never,
      { type: 'xstate.error.actor.copyText', error: new Error('NotAllowedError'), actorId: 'copyText' } as never,
      { type: 'share.copy' },
    ];
  }
  if (s.matches({ ready: 'copied' })) return [{ type: AFTER } as never, { type: 'share.copy' }];
  return [{ type: 'share.copy' }, { type: 'share.retry' }, { type: 'share.stop' }];
};

/** What every state must satisfy, and exactly the toasts of the step. */
const check = (fn: (s: Snap, e: { type: string } | null, p: Snap | null) => void) => (s: Snap, e: { type: string } | null) => {
  const p = prev;
  const fresh = emitted.slice(emittedSeen);
  emittedSeen = emitted.length;
  expect(s.hasTag('loading')).toBe(s.matches('loading'));
  expect(s.hasTag('copied')).toBe(s.matches({ ready: 'copied' }));
  expect(s.hasTag('busy')).toBe(s.matches('stopping'));
  // The link exists exactly once the server gave it and until it is stopped; a retry asks again for the same conversation.
  expect(s.context.url !== null).toBe(s.matches('ready') || s.matches('confirmingStop') || s.matches('stopping'));
  expect(s.context.failure !== null).toBe(s.matches('failed'));
  expect(Boolean(s.children.revokeLink)).toBe(s.matches('stopping'));
  if (s.matches('stopping')) expect(revokes.at(-1)).toEqual({ shareId: SHARE_ID });
  expect(Boolean(s.children.createLink)).toBe(s.matches('loading'));
  expect(Boolean(s.children.copyText)).toBe(s.matches({ ready: 'copying' }));
  if (s.matches('loading')) expect(linkRequests.at(-1)).toEqual({ conversationId: 'c1' });
  if (s.matches({ ready: 'copying' }) && !p?.matches({ ready: 'copying' })) expect(copies.at(-1)).toEqual({ text: URL });
  // Copy only once there is a link, and not again while the clipboard answers; retry only after a failure.
  expect(s.can({ type: 'share.copy' })).toBe(s.matches('ready') && !s.matches({ ready: 'copying' }));
  // 'Try again' only where asking again can help: no answer or a server fault, never a refusal (404).
  expect(s.can({ type: 'share.retry' })).toBe(s.matches('failed') && s.context.failure?.canRetry === true);
  expect(s.can({ type: 'share.stop' })).toBe(s.matches('ready'));
  expect(s.can({ type: 'share.again' })).toBe(s.matches('stopped'));
  const expected: Notice[] = [];
  if (e?.type === 'xstate.done.actor.copyText') expected.push(notice('success', LINK_COPIED));
  if (e?.type === 'xstate.error.actor.copyText') expected.push(notice('error', COPY_LINK_FAILED));
  // A link already gone (404) is stopped all the same; any other failure keeps it shared and says so.
  if (e?.type === 'xstate.done.actor.revokeLink' || (e?.type === 'xstate.error.actor.revokeLink' && statusOf(e) === 404)) {
    expected.push(notice('success', SHARING_STOPPED));
  }
  if (e?.type === 'xstate.error.actor.revokeLink' && statusOf(e) !== 404) expected.push(notice('error', STOP_SHARING_FAILED));
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
    revokes = [];
    emitted = [];
    emittedSeen = 0;
    prev = null;
    actor.on('*', (ev) => emitted.push(ev as Notice));
  },
  inputs: [{ conversationId: 'c1' }],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, s.context.failure?.canRetry ?? null]),
  edgeKeys: true,
  checks: {
    loading: check((s, e, p) => {
      expect(s.context.url).toBeNull();
      if (e?.type === 'share.retry') expect(p?.matches('failed')).toBe(true);
      if (e?.type === 'share.again') expect(p?.matches('stopped')).toBe(true);
    }),
    failed: check((s, e) => {
      if (e?.type !== 'xstate.error.actor.createLink') return;
      // The spec's two texts: the server answered ('Failed to get share link', its sentence beside) or did not.
      const status = statusOf(e);
      expect(s.context.failure).toEqual(
        status === 404
          ? { text: SHARE_LINK_FAILED, detail: 'Conversation not found', canRetry: false }
          : status === 500
            ? { text: SHARE_LINK_FAILED, detail: 'Internal Server Error', canRetry: true }
            : { text: SHARE_LINK_ERROR, detail: null, canRetry: true },
      );
    }),
    ready: check((s, e) => {
      expect(s.context.url).toBe(URL);
      expect(s.context.shareId).toBe(SHARE_ID);
      if (e?.type === AFTER) expect(s.matches({ ready: 'idle' })).toBe(true);
      if (e?.type === 'share.stopCancel' || e?.type === 'xstate.error.actor.revokeLink') expect(s.matches({ ready: 'idle' })).toBe(true);
    }),
    confirmingStop: check((s) => {
      expect(s.context.url).toBe(URL);
      expect(revokes).toEqual([]);
    }),
    stopping: check(() => {}),
    stopped: check((s) => {
      expect(s.context).toMatchObject({ url: null, shareId: null });
      expect(revokes).toHaveLength(1);
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
          createLink: fromPromise(async () => LINK),
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
    expect([SHARE_LINK_FAILED, SHARE_LINK_ERROR, LINK_COPIED, COPY_LINK_FAILED, COPIED_MS]).toEqual([
      'Failed to get share link',
      'Error creating share link',
      'Link copied to clipboard',
      'Failed to copy link',
      2000,
    ]);
  });
});
