import { it } from 'vitest';
import { expect } from './support/expect';
import { createActor, fromCallback, type EventFrom, type SnapshotFrom } from 'xstate';
import type { ChatMessage, ConversationMessages } from '../../contract/chat';
import { followInput } from '../../machines/chat-send.machine';
import { followPollMachine, followReplyMachine, type FollowReplyInput, type LoadInput } from '../../machines/follow-reply.machine';
import type { PollOutput } from '../../machines/poll.machine';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof followReplyMachine>;
type Ev = EventFrom<typeof followReplyMachine>;

const input: FollowReplyInput = { messageId: 'a1', poll: followInput('c1') };
const conversation = { id: 'c1', title: 'Trip', created_at: '2025-01-01T10:00:00.000Z', updated_at: '2025-01-01T10:00:00.000Z' };
const reply = (status: ChatMessage['status']): ChatMessage => ({
  id: 'a1',
  conversation_id: 'c1',
  content: status === 'complete' ? 'Sure, let us go.' : 'Sure, let',
  sender: 'Assistant',
  status,
  created_at: '2025-01-01T10:00:00.000Z',
  stopped: false,
});
const recent = (status: ChatMessage['status']): ConversationMessages => ({ conversation, messages: [reply(status)], earlier_cursor: null });
const pollEnd = (status: PollOutput['status']): PollOutput<ConversationMessages> => ({ status, value: recent(status === 'finished' ? 'complete' : 'streaming'), error: status === 'failed' ? new Error('503') : null, attempts: 3 });

/** What the machine told the world (and its parent): follow.text and poll.progress, in order. */
let reported: Array<{ type: string; text?: string; value?: unknown }> = [];
let checks: unknown[] = [];
let prev: Snap | null = null;

const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output, actorId: id }) as unknown as Ev;
const failed = (id: string, error: unknown) => ({ type: `xstate.error.actor.${id}`, error, actorId: id }) as unknown as Ev;

function eventsFor(s: Snap): Ev[] {
  if (s.matches('streaming')) return [{ type: 'stream.chunk', text: 'Sure, ' }, { type: 'stream.done' }, { type: 'stream.ended' }, { type: 'stream.failed', error: new Error('409') }];
  if (s.matches('settling')) return [done('check', recent('complete')), failed('check', new Error('503'))];
  if (s.matches('polling')) {
    return [
      { type: 'poll.progress', value: recent('streaming') },
      done('poll', pollEnd('finished')),
      done('poll', pollEnd('gaveUp')),
      done('poll', pollEnd('failed')),
      failed('poll', new Error('poll broke')),
    ];
  }
  return [];
}

const check = (fn: (s: Snap, e: (Ev & { output?: unknown; error?: unknown; text?: string; value?: unknown }) | null, p: Snap | null) => void) => (s: Snap, e: { type: string } | null) => {
  fn(s, e as never, prev);
  prev = s;
};

runModelTest({
  name: 'follow-reply',
  machine: followReplyMachine,
  testMachine: () =>
    followReplyMachine.provide({
      actors: {
        followStream: fromCallback(() => {}),
        check: pendingActor<ConversationMessages, LoadInput>((i) => checks.push(i)),
        poll: followPollMachine.provide({ actors: { check: pendingActor<ConversationMessages, LoadInput>() } }),
      },
    }),
  onActor: (actor) => {
    reported = [];
    checks = [];
    prev = null;
    actor.on('*', (event) => reported.push(event as never));
  },
  inputs: [input],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, s.context.text.length > 0]),
  edgeKeys: true,
  checks: {
    streaming: check((s, e, p) => {
      expect(s.hasTag('streaming')).toBe(true);
      expect(s.children.followStream).toBeDefined();
      if (e?.type === 'stream.chunk') {
        // The whole text so far, reported to the chat as the reply's content.
        expect(s.context.text).toBe(`${p!.context.text}${e.text}`);
        expect(reported.at(-1)).toEqual({ type: 'follow.text', messageId: 'a1', text: s.context.text });
      }
    }),
    settling: check((s) => {
      // The saved reply is read once, with the poll's check input.
      expect(checks.at(-1)).toEqual({ conversationId: 'c1' });
      expect(s.hasTag('streaming')).toBe(false);
    }),
    polling: check((s, e) => {
      const poll = s.children.poll!.getSnapshot() as SnapshotFrom<typeof followPollMachine>;
      // The fallback poll as chat-send asks for it, reporting to this machine.
      expect(poll.context).toMatchObject({ intervalMs: 1000, maxAttempts: 600, stopOnError: true, checkInput: { conversationId: 'c1' } });
      if (e?.type === 'poll.progress') expect(reported.at(-1)).toEqual({ type: 'poll.progress', value: e.value });
    }),
    finished: check((s, e) => {
      expect(s.status).toBe('done');
      if (e?.type === 'xstate.done.actor.check') {
        expect(s.output).toEqual({ status: 'finished', value: e.output, error: null, attempts: 1 });
        expect(reported.at(-1)).toEqual({ type: 'poll.progress', value: e.output });
      }
      if (e?.type === 'xstate.done.actor.poll') expect(s.output).toEqual(e.output);
      if (e?.type === 'xstate.error.actor.poll') expect(s.output).toMatchObject({ status: 'failed', error: e.error });
    }),
  },
});

// Reporting to a parent: the chat-send machine gets the same events it would see emitted.
it('sends its reports to the parent named in its input', () => {
  const got: Array<{ type: string }> = [];
  const parent = createActor(fromCallback(({ receive }) => receive((event) => got.push(event))));
  parent.start();
  const follow = createActor(followReplyMachine.provide({ actors: { followStream: fromCallback(() => {}) } }), { input: { ...input, parent } });
  follow.start();
  follow.send({ type: 'stream.chunk', text: 'Sure' });
  expect(got).toEqual([{ type: 'follow.text', messageId: 'a1', text: 'Sure' }]);
  follow.stop();
});
