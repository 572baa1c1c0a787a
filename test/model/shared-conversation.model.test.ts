import { describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import type { SharedConversation } from '../../contract/shares';
import { loadFailure } from '../../machines/load-failure';
import {
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
const notFound = loadFailure('HTTP 404', 'Shared conversation not found');
const dropped = loadFailure('Network Error', null);

let loads: SharedConversationInput[] = [];

const eventsFor = (s: Snap): Ev[] =>
  s.matches('loading')
    ? ([
        { type: 'xstate.done.actor.load', output: shared, actorId: 'load' },
        { type: 'xstate.done.actor.load', output: emptyShare, actorId: 'load' },
        { type: 'xstate.error.actor.load', error: notFound, actorId: 'load' },
        { type: 'xstate.error.actor.load', error: dropped, actorId: 'load' },
      ] as never[])
    : [{ type: 'retry' }];

const common = (s: Snap) => {
  expect(s.hasTag('loading')).toBe(s.matches('loading'));
  expect(Boolean(s.children.load)).toBe(s.matches('loading'));
  expect(s.can({ type: 'retry' })).toBe(s.matches('failed'));
  expect(s.context.failure !== null).toBe(s.matches('failed'));
};

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
      expect(s.context.failure).toEqual(
        error === notFound ? { text: LOAD_SHARED_FAILED, detail: 'Shared conversation not found' } : { text: LOAD_SHARED_ERROR, detail: null },
      );
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
