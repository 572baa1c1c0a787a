import { describe, it } from 'vitest';
import { expect } from './support/expect';
import type { EventFrom, SnapshotFrom } from 'xstate';
import type { SharedConversation } from '../../contract/shares';
import { answerStatusOf } from '../../machines/answer-status';
import { loadFailure } from '../../machines/load-failure';
import {
  LINK_UNAVAILABLE,
  LOAD_SHARED_ERROR,
  LOAD_SHARED_FAILED,
  NO_SHARED_MESSAGES,
  SHARED_TITLE_FALLBACK,
  sharedConversationMachine,
  sharedTitle,
  type SharedConversationInput,
} from '../../machines/shared-conversation.machine';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof sharedConversationMachine>;
type Ev = EventFrom<typeof sharedConversationMachine>;

const at = '2025-01-01T10:00:00.000Z';
const shared: SharedConversation = {
  conversation: { id: 'c1', title: 'Trip planning', created_at: at },
  messages: [
    { id: 'm1', content: 'Plan a trip', sender: 'user', created_at: at },
    { id: 'm2', content: 'Sure.', sender: 'Assistant', created_at: at },
  ],
};
const emptyShare: SharedConversation = { ...shared, messages: [] };
// As src/lib/answer-status.ts rejects: the server's sentence and the HTTP status (0: no answer).
const notFound = Object.assign(loadFailure('HTTP 404', 'Shared conversation not found'), { status: 404 });
const serverFault = Object.assign(loadFailure('HTTP 500', 'Internal Server Error'), { status: 500 });
const dropped = Object.assign(loadFailure('Network Error', null), { status: 0 });

let loads: SharedConversationInput[] = [];

const eventsFor = (s: Snap): Ev[] =>
  s.matches('loading')
    ? ([
        { type: 'xstate.done.actor.load', output: shared, actorId: 'load' },
        { type: 'xstate.done.actor.load', output: emptyShare, actorId: 'load' },
        { type: 'xstate.error.actor.load', error: notFound, actorId: 'load' },
        { type: 'xstate.error.actor.load', error: serverFault, actorId: 'load' },
        { type: 'xstate.error.actor.load', error: dropped, actorId: 'load' },
      ] as never[])
    : s.matches('failed') || s.matches('unavailable')
      ? [{ type: 'retry' }]
      : [];

const common = (s: Snap) => {
  expect(s.hasTag('loading')).toBe(s.matches('loading'));
  expect(Boolean(s.children.load)).toBe(s.matches('loading'));
  expect(s.can({ type: 'retry' })).toBe(s.matches('failed'));
  expect(s.context.failure !== null).toBe(s.matches('failed'));
};

/** The one link text of a link that is gone, with no 'Try again' behind it (issue 28). */
const UNAVAILABLE_TEXTS = [LINK_UNAVAILABLE];

runModelTest({
  name: 'shared-conversation',
  machine: sharedConversationMachine,
  testMachine: () => sharedConversationMachine.provide({ actors: { load: pendingActor((input: SharedConversationInput) => loads.push(input)) } }),
  onActor: () => {
    loads = [];
  },
  inputs: [{ shareId: 'AbCdEfGhIjKlMnOpQrStUvWx' }],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, s.context.failure?.text ?? null]),
  edgeKeys: true,
  checks: {
    loading: (s) => {
      common(s);
      expect(loads.at(-1)).toEqual({ shareId: 'AbCdEfGhIjKlMnOpQrStUvWx' });
    },
    shown: (s) => {
      common(s);
      expect(s.context.shared).toEqual(shared);
    },
    empty: (s) => {
      common(s);
      expect(s.context.shared?.messages).toEqual([]);
    },
    failed: (s, e) => {
      common(s);
      const error = (e as unknown as { error: unknown }).error;
      // The server's own sentence when it answered; a dropped connection has none.
      // A failure of the server or of the connection, never a refused link.
      expect(answerStatusOf(error)).not.toBe(404);
      expect(s.context.failure).toEqual(
        answerStatusOf(error) === 500 ? { text: LOAD_SHARED_FAILED, detail: 'Internal Server Error' } : { text: LOAD_SHARED_ERROR, detail: null },
      );
    },
    unavailable: (s, e) => {
      common(s);
      // A revoked, unknown or foreign link: nothing to retry, no failure text beside the one message.
      if (e?.type === 'xstate.error.actor.load') expect(answerStatusOf((e as unknown as { error: unknown }).error)).toBe(404);
      // 'Try again' is not offered: the same link gets the same answer.
      if (e?.type === 'retry') expect(s.children.load).toBeUndefined();
      expect(s.context.shared).toBeNull();
      expect(UNAVAILABLE_TEXTS).toEqual(['This shared link is no longer available']);
    },
  },
});

describe('shared conversation texts', () => {
  it('keeps the spec texts and falls back to Shared Conversation for a blank title', () => {
    expect([LOAD_SHARED_FAILED, LOAD_SHARED_ERROR, NO_SHARED_MESSAGES]).toEqual([
      'Failed to load shared conversation',
      'Error loading shared conversation',
      'No messages found in shared conversation',
    ]);
    expect(sharedTitle(shared)).toBe('Trip planning');
    expect(sharedTitle({ ...shared, conversation: { ...shared.conversation, title: '  ' } })).toBe(SHARED_TITLE_FALLBACK);
    expect(sharedTitle(null)).toBe('Shared Conversation');
  });
});
