import { describe, it } from 'vitest';
import { expect } from './support/expect';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { RATING_COMMENT_MAX_LENGTH, RATING_COMMENT_SAVED, RATING_COMMENT_TOO_LONG, RATING_FAILED } from '../../contract/feedback-constants';
import { loadFailure } from '../../machines/load-failure';
import { notice, type Notice } from '../../machines/notice';
import { nextRating, replyRatingMachine, type SaveRatingRequest } from '../../machines/reply-rating.machine';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof replyRatingMachine>;
type Ev = EventFrom<typeof replyRatingMachine>;

const MESSAGE = 'm1';
const refused = loadFailure('HTTP 404', 'Reply not found');
const dropped = loadFailure('Network Error', null);
const tooLong = 'x'.repeat(RATING_COMMENT_MAX_LENGTH + 1);

let saves: SaveRatingRequest[] = [];
let savesSeen = 0;
let emitted: Notice[] = [];
let emittedSeen = 0;
let prev: Snap | null = null;

const done = { type: 'xstate.done.actor.save', output: { message_id: MESSAGE, rating: null, comment: null }, actorId: 'save' };
const failures = [
  { type: 'xstate.error.actor.save', error: refused, actorId: 'save' },
  { type: 'xstate.error.actor.save', error: dropped, actorId: 'save' },
];

const eventsFor = (s: Snap): Ev[] => {
  const thumbs: Ev[] = [
    { type: 'rating.choose', rating: 'up' },
    { type: 'rating.choose', rating: 'down' },
  ];
  if (s.hasTag('busy')) return [done, ...failures, ...thumbs] as never[];
  if (s.matches('commenting')) {
    return [
      ...thumbs,
      { type: 'comment.edit', text: '  It cited the wrong policy.  ' },
      { type: 'comment.edit', text: tooLong },
      { type: 'comment.send' },
      { type: 'comment.skip' },
    ];
  }
  return [...thumbs, { type: 'comment.send' }, { type: 'comment.skip' }];
};

const errorText = (e: { type: string } | null) => ((e as { error?: unknown } | null)?.error === refused ? 'Reply not found' : RATING_FAILED);

const check = (fn: (s: Snap, e: { type: string } | null, p: Snap | null) => void) => (s: Snap, e: { type: string } | null) => {
  const p = prev;
  const fresh = emitted.slice(emittedSeen);
  emittedSeen = emitted.length;
  const sent = saves.slice(savesSeen);
  savesSeen = saves.length;
  // One save at a time: a request goes out on entering a busy state, never while one is in flight.
  const entered = s.hasTag('busy') && !(p?.hasTag('busy') && e?.type === 'rating.choose');
  expect(sent).toHaveLength(entered ? 1 : 0);
  expect(s.hasTag('busy')).toBe(s.matches('saving') || s.matches('sendingComment'));
  expect(Boolean(s.children.save)).toBe(s.hasTag('busy'));
  // Toasts: a failure says so; a comment sent thanks; a thumb saved shows itself pressed, no toast.
  const expected: Notice[] = [];
  // A failure with a newer choice waiting says nothing: that choice is saved next.
  if (e?.type === 'xstate.error.actor.save' && !s.matches('saving')) expected.push(notice('error', errorText(e)));
  if (e?.type === 'xstate.done.actor.save' && p?.matches('sendingComment')) expected.push(notice('success', RATING_COMMENT_SAVED));
  expect(fresh).toEqual(expected);
  // While a comment is being sent, the thumbs wait for it; while a thumb is saved, another press is taken.
  if (s.hasTag('busy')) expect(s.can({ type: 'rating.choose', rating: 'up' })).toBe(s.matches('saving'));
  fn(s, e, p);
  prev = s;
};

runModelTest({
  name: 'reply-rating',
  machine: replyRatingMachine,
  testMachine: () => replyRatingMachine.provide({ actors: { save: pendingActor((input: SaveRatingRequest) => saves.push(input)) } }),
  onActor: (actor) => {
    saves = [];
    savesSeen = 0;
    emitted = [];
    emittedSeen = 0;
    prev = null;
    actor.on('*', (ev) => emitted.push(ev as Notice));
  },
  inputs: [
    { messageId: MESSAGE, rating: null },
    { messageId: MESSAGE, rating: 'up' },
  ],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, s.context.rating, s.context.saved, s.context.sending, s.context.comment.length > RATING_COMMENT_MAX_LENGTH, s.context.commentError !== null]),
  simpleKey: (s) => JSON.stringify([s.value, s.context.rating]),
  edgeKeys: true,
  checks: {
    idle: check((s, e, p) => {
      // Shown is what the server has, once nothing is in flight.
      expect(s.context.rating).toBe(s.context.saved);
      expect(s.context.comment).toBe('');
      // A failed save shows again what was saved before the press.
      if (e?.type === 'xstate.error.actor.save') expect(s.context.rating).toBe(p!.context.saved);
    }),
    saving: check((s, e, p) => {
      if (e?.type === 'rating.choose') {
        // The press shows at once: the pressed thumb again clears it. During a save it waits for that one to end
        // (nothing sent now); otherwise it is sent at once.
        expect(s.context.rating).toBe(nextRating(p!.context.rating, (e as unknown as { rating: 'up' | 'down' }).rating));
        expect(s.context.saved).toBe(p!.context.saved);
        expect(s.context.sending).toBe(p!.matches('saving') ? p!.context.sending : s.context.rating);
      } else {
        // A save ended with a newer choice waiting: that one is sent now. What the server confirmed is kept, or, after a
        // failure, what it had before.
        expect(p!.matches('saving')).toBe(true);
        expect(p!.context.rating).not.toBe(p!.context.sending);
        expect(s.context.saved).toBe(e?.type === 'xstate.done.actor.save' ? p!.context.sending : p!.context.saved);
        expect(s.context.sending).toBe(s.context.rating);
      }
      expect(saves.at(-1)).toEqual({ messageId: MESSAGE, body: { rating: s.context.sending, comment: null } });
    }),
    commenting: check((s, e, p) => {
      expect(s.context.rating).toBe('down');
      expect(s.context.saved).toBe('down');
      if (e?.type === 'comment.send') {
        expect(s.context.commentError).toBe(RATING_COMMENT_TOO_LONG);
        expect(saves.at(-1)!.body.comment ?? null).toBeNull();
      }
      if (e?.type === 'comment.edit') expect(s.context.commentError).toBeNull();
      // A failed comment keeps what was written.
      if (e?.type === 'xstate.error.actor.save') expect(s.context.comment).toBe(p!.context.comment);
    }),
    sendingComment: check((s) => {
      const comment = s.context.comment.trim();
      expect(saves.at(-1)).toEqual({ messageId: MESSAGE, body: { rating: 'down', comment: comment || null } });
    }),
  },
});

describe('nextRating', () => {
  it('presses a thumb, and the pressed one again clears it', () => {
    expect(nextRating(null, 'up')).toBe('up');
    expect(nextRating('up', 'down')).toBe('down');
    expect(nextRating('down', 'down')).toBeNull();
  });
});
