import { assertEvent, assign, fromCallback, setup, type DoneActorEvent, type ErrorActorEvent, type EventObject } from 'xstate';
import type { ChatMessage, ConversationMessages } from '../contract/chat';
import { notProvided } from './not-provided';
import { pollMachine, type PollInput, type PollOutput, type PollProgress } from './poll.machine';
import { report, type ReportsTo } from './report';

/** The conversation whose messages a load or a check reads (chat-send's loads share it). */
export interface LoadInput {
  conversationId: string;
}

/**
 * Following a reply written elsewhere (another tab, before a reload, another instance): the chat-send machine's
 * `follow` child. First it reads the reply's own stream (GET /chat/messages/{id}/stream: the text so far, then live),
 * reporting `follow.text` `{ messageId, text }` (the whole text so far) as it grows. When the stream says `done`,
 * one check (`check`: the conversation's recent messages) reads the saved reply, reported as `poll.progress`, and the
 * follow ends `finished`. When the stream cannot be read, or ends without `done` (the reply is not known on that
 * instance, or its writer stopped without ending it), the follow falls back to the poll (`poll`: a check every
 * interval until no reply is streaming), whose progress it passes on and whose output it ends with.
 *
 * Output: the poll's {@link PollOutput} (`finished`, `gaveUp`, `failed`), so the parent ends following the same way
 * whichever path was taken.
 */

export interface FollowReplyInput extends ReportsTo {
  /** The reply being written. */
  messageId: string;
  /** The fallback poll (its parent is this machine); `checkInput` is also the settling check's input. */
  poll: Omit<PollInput<LoadInput>, 'parent'>;
}

/** Reported as the followed reply grows: its whole text so far. */
export interface FollowText {
  type: 'follow.text';
  messageId: string;
  text: string;
}

/** What the `followStream` actor sends back, in order. */
export type FollowStreamEvent =
  | { type: 'stream.chunk'; text: string }
  | { type: 'stream.done' }
  /** The stream ended without done: nothing (more) to follow there. */
  | { type: 'stream.ended' }
  | { type: 'stream.failed'; error: unknown };

export interface FollowReplyContext extends FollowReplyInput {
  text: string;
  output: PollOutput<ConversationMessages> | null;
}

/** A reply the server is still writing (a message loaded with status 'streaming'). */
export const hasStreamingReply = (messages: ChatMessage[]) => messages.some((m) => m.sender === 'Assistant' && m.status === 'streaming');

/** The fallback: done once no assistant message of the answer is streaming. */
export const followPollMachine = pollMachine.provide({
  guards: {
    isFinished: (_, { value }) => !hasStreamingReply((value as ConversationMessages).messages),
  },
});

export const followReplyMachine = setup({
  types: {
    context: {} as FollowReplyContext,
    input: {} as FollowReplyInput,
    events: {} as
      | FollowStreamEvent
      | PollProgress<ConversationMessages>
      | DoneActorEvent<ConversationMessages, 'check'>
      | ErrorActorEvent<unknown, 'check'>
      | DoneActorEvent<PollOutput<ConversationMessages>, 'poll'>
      | ErrorActorEvent<unknown, 'poll'>,
    output: {} as PollOutput<ConversationMessages>,
    emitted: {} as FollowText | PollProgress<ConversationMessages>,
    children: {} as { followStream: 'followStream'; check: 'check'; poll: 'poll' },
    tags: {} as 'streaming',
  },
  actors: {
    // A callback actor (src/: fetch-event-source, aborted in its cleanup); the default fails like every unprovided slot.
    followStream: fromCallback<EventObject, { messageId: string }>(() => {
      throw new Error('actor followStream is not provided');
    }),
    check: notProvided<ConversationMessages, LoadInput>('check'),
    poll: followPollMachine,
  },
  actions: {
    appendText: assign({
      text: ({ context, event }) => {
        assertEvent(event, 'stream.chunk');
        return context.text + event.text;
      },
    }),
    reportText: report(({ context }: { context: FollowReplyContext }) => {
      const event: FollowText = { type: 'follow.text', messageId: context.messageId, text: context.text };
      return event;
    }),
    reportChecked: report(({ event }) => {
      assertEvent(event, 'xstate.done.actor.check');
      return { type: 'poll.progress', value: event.output } satisfies PollProgress<ConversationMessages>;
    }),
    passProgressOn: report(({ event }) => {
      assertEvent(event, 'poll.progress');
      return event;
    }),
  },
}).createMachine({
  id: 'followReply',
  context: ({ input }) => ({ ...input, text: '', output: null }),
  initial: 'streaming',
  states: {
    streaming: {
      description: "Reading the reply's own stream: the text so far, then live.",
      tags: 'streaming',
      invoke: { id: 'followStream', src: 'followStream', input: ({ context }) => ({ messageId: context.messageId }) },
      on: {
        'stream.chunk': { actions: ['appendText', 'reportText'] },
        'stream.done': 'settling',
        'stream.ended': 'polling',
        'stream.failed': 'polling',
      },
    },
    settling: {
      description: 'The stream said done: the saved reply is read once.',
      invoke: {
        id: 'check',
        src: 'check',
        input: ({ context }) => context.poll.checkInput,
        onDone: {
          target: 'finished',
          actions: ['reportChecked', assign({ output: ({ event }) => ({ status: 'finished', value: event.output, error: null, attempts: 1 }) })],
        },
        // The saved reply could not be read: the poll tries again on its own schedule.
        onError: 'polling',
      },
    },
    polling: {
      description: 'Without a stream to read: the conversation is checked every interval until the reply has ended.',
      invoke: {
        id: 'poll',
        src: 'poll',
        input: ({ context, self }) => ({ ...context.poll, parent: self }),
        onDone: { target: 'finished', actions: assign({ output: ({ event }) => event.output as PollOutput<ConversationMessages> }) },
        onError: {
          target: 'finished',
          actions: assign({ output: ({ context, event }) => ({ status: 'failed', value: context.output?.value, error: event.error, attempts: 0 }) }),
        },
      },
      on: { 'poll.progress': { actions: 'passProgressOn' } },
    },
    finished: { description: 'Following has ended; the output says how.', type: 'final' },
  },
  output: ({ context }) => context.output ?? { status: 'failed', value: undefined, error: new Error('follow ended without an outcome'), attempts: 0 },
});

export type FollowReplyMachine = typeof followReplyMachine;
