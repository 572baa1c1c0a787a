import { describe, it } from 'vitest';
import { expect } from './support/expect';
import type { EventFrom, SnapshotFrom } from 'xstate';
import type { FeedbackRequest } from '../../contract/feedback';
import { DESCRIPTION_TOO_LONG, FEEDBACK_DESCRIPTION_MAX_LENGTH, FEEDBACK_RECEIVED } from '../../contract/feedback-constants';
import { loadFailure } from '../../machines/load-failure';
import { DEFAULT_LEVEL, FEEDBACK_FAILED, feedbackMachine, feedbackPayload } from '../../machines/feedback.machine';
import { notice, type Notice } from '../../machines/notice';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof feedbackMachine>;
type Ev = EventFrom<typeof feedbackMachine>;

const refused = loadFailure('HTTP 400', 'Rating is required');
const dropped = loadFailure('Network Error', null);
const tooLong = 'x'.repeat(FEEDBACK_DESCRIPTION_MAX_LENGTH + 1);

let submitted: FeedbackRequest[] = [];
let emitted: Notice[] = [];
let emittedSeen = 0;
let prev: Snap | null = null;

const eventsFor = (s: Snap): Ev[] => {
  if (s.matches('closed')) return [{ type: 'feedback.open', kind: 'feedback' }, { type: 'feedback.open', kind: 'report' }, { type: 'feedback.submit' }];
  if (s.matches('submitting')) {
    return [
      { type: 'xstate.done.actor.submit', output: { id: 'f1' }, actorId: 'submit' },
      { type: 'xstate.error.actor.submit', error: refused, actorId: 'submit' },
      { type: 'xstate.error.actor.submit', error: dropped, actorId: 'submit' },
      { type: 'feedback.close' },
    ] as never[];
  }
  return [
    { type: 'field.level', level: 'EXCELLENT' },
    { type: 'field.description', text: '  The answers cite the right policy.  ' },
    { type: 'field.description', text: tooLong },
    { type: 'feedback.submit' },
    { type: 'feedback.close' },
  ];
};

/** Every state's invariants and exactly the toasts of the step. */
const check = (fn: (s: Snap, e: { type: string } | null, p: Snap | null) => void) => (s: Snap, e: { type: string } | null) => {
  const p = prev;
  const fresh = emitted.slice(emittedSeen);
  emittedSeen = emitted.length;
  expect(s.hasTag('busy')).toBe(s.matches('submitting'));
  expect(Boolean(s.children.submit)).toBe(s.matches('submitting'));
  const expected: Notice[] = [];
  if (e?.type === 'xstate.done.actor.submit') expected.push(notice('success', FEEDBACK_RECEIVED));
  if (e?.type === 'xstate.error.actor.submit') {
    const error = (e as unknown as { error: unknown }).error;
    expected.push(notice('error', error === refused ? 'Rating is required' : FEEDBACK_FAILED));
  }
  expect(fresh).toEqual(expected);
  fn(s, e, p);
  prev = s;
};

const isFresh = (s: Snap) => {
  expect(s.context.level).toBe(DEFAULT_LEVEL);
  expect(s.context.description).toBe('');
  expect(s.context.descriptionError).toBeNull();
};

runModelTest({
  name: 'feedback',
  machine: feedbackMachine,
  testMachine: () => feedbackMachine.provide({ actors: { submit: pendingActor((input: FeedbackRequest) => submitted.push(input)) } }),
  onActor: (actor) => {
    submitted = [];
    emitted = [];
    emittedSeen = 0;
    prev = null;
    actor.on('*', (ev) => emitted.push(ev as Notice));
  },
  inputs: [undefined],
  events: eventsFor,
  key: (s) =>
    JSON.stringify([s.value, s.context.type, s.context.level, s.context.description.length > FEEDBACK_DESCRIPTION_MAX_LENGTH, s.context.descriptionError !== null]),
  simpleKey: (s) => JSON.stringify(s.value),
  edgeKeys: true,
  checks: {
    closed: check((s, e) => {
      // Closed (cancelled or sent): the form starts afresh, AVERAGE again.
      isFresh(s);
      if (e?.type === 'xstate.done.actor.submit') expect(submitted).toHaveLength(1);
    }),
    editing: check((s, e, p) => {
      if (e?.type === 'feedback.open') {
        isFresh(s);
        expect(s.context.type).toBe((e as { kind?: string }).kind);
      }
      if (e?.type === 'feedback.submit') {
        // Only an over-long description stays here, with the server's sentence; nothing is sent.
        expect(s.context.descriptionError).toBe(DESCRIPTION_TOO_LONG);
        expect(submitted).toHaveLength(0);
      }
      if (e?.type === 'field.description') expect(s.context.descriptionError).toBeNull();
      // A failed send keeps what was written.
      if (e?.type === 'xstate.error.actor.submit') expect(s.context).toEqual(p!.context);
    }),
    submitting: check((s) => {
      // A report never carries a rating; a feedback always does; the description is trimmed, blank is none.
      const sent = submitted.at(-1)!;
      expect(sent).toEqual(feedbackPayload(s.context));
      expect(sent.level).toBe(s.context.type === 'report' ? null : s.context.level);
      if (sent.description !== null) expect(sent.description).toBe(sent.description!.trim());
      expect(s.can({ type: 'feedback.submit' })).toBe(false);
    }),
  },
});

describe('feedback payload', () => {
  it('sends AVERAGE by default for feedback, null for a report, and no blank description', () => {
    const base = { level: DEFAULT_LEVEL, description: '   ', descriptionError: null };
    expect(feedbackPayload({ ...base, type: 'feedback' })).toEqual({ type: 'feedback', level: 'AVERAGE', description: null });
    expect(feedbackPayload({ ...base, type: 'report', level: 'GOOD', description: ' Broken link ' })).toEqual({
      type: 'report',
      level: null,
      description: 'Broken link',
    });
  });
});
