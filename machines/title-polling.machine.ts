import { assign, emit, setup } from 'xstate';
import { notProvided } from './not-provided';
import { DEFAULT_CONVERSATION_TITLE } from '../contract/chat-constants';

/**
 * Polls a new conversation's title until the server has named it (spec section 4 "Sending a message", step 4:
 * after the first exchange, up to 20 attempts, 20 seconds apart, until the title is no longer 'New Conversation').
 *
 * The view starts one when chat-send emits `exchange.completed` with messageCount 2, and sends `polling.stop`
 * (or just stops the actor) when the person leaves the conversation.
 *
 * States: `starting` (transient: an input title that is already named goes straight to `changed`), `waiting`
 * (tag `polling`; after TITLE_POLL_INTERVAL -> fetching), `fetching` (tags `polling`, `fetching`; invokes
 * `fetchTitle`), and the final states `changed`, `gaveUp`, `stopped`. The machine's output is
 * `{ title, changed }`.
 */
export const MAX_TITLE_POLL_ATTEMPTS = 20;
export const TITLE_POLL_INTERVAL_MS = 20000;

export interface TitlePollingInput {
  conversationId: string;
  title: string;
}

export interface TitlePollingContext {
  conversationId: string;
  /** The last title seen (the input's, then each fetched one). */
  title: string;
  /** Completed fetches (a failed fetch counts too). */
  attempts: number;
  /** The last fetch failure's message, if any. */
  lastError: string | null;
}

export type TitlePollingEvent = { type: 'polling.stop' };

export type TitlePollingEmitted = { type: 'title.changed'; conversationId: string; title: string };

export interface TitlePollingOutput {
  title: string;
  changed: boolean;
}

const isNamed = (title: string) => title.trim() !== '' && title !== DEFAULT_CONVERSATION_TITLE;

export const titlePollingMachine = setup({
  types: {
    context: {} as TitlePollingContext,
    events: {} as TitlePollingEvent,
    input: {} as TitlePollingInput,
    emitted: {} as TitlePollingEmitted,
    output: {} as TitlePollingOutput,
    tags: {} as 'polling' | 'fetching',
  },
  actors: {
    fetchTitle: notProvided<string, { conversationId: string }>('fetchTitle'),
  },
  delays: {
    TITLE_POLL_INTERVAL: TITLE_POLL_INTERVAL_MS,
  },
  guards: {
    alreadyNamed: ({ context }) => isNamed(context.title),
    isNamedTitle: (_, params: { title: string }) => isNamed(params.title),
    /** After this fetch, the attempts are used up. */
    isLastAttempt: ({ context }) => context.attempts + 1 >= MAX_TITLE_POLL_ATTEMPTS,
  },
  actions: {
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
  },
}).createMachine({
  id: 'titlePolling',
  context: ({ input }) => ({ conversationId: input.conversationId, title: input.title, attempts: 0, lastError: null }),
  initial: 'starting',
  on: {
    'polling.stop': '.stopped',
  },
  states: {
    /** Transient: never observed. */
    starting: {
      always: [{ guard: 'alreadyNamed', target: 'changed' }, { target: 'waiting' }],
    },
    waiting: {
      tags: ['polling'],
      after: { TITLE_POLL_INTERVAL: 'fetching' },
    },
    fetching: {
      tags: ['polling', 'fetching'],
      invoke: {
        id: 'fetchTitle',
        src: 'fetchTitle',
        input: ({ context }) => ({ conversationId: context.conversationId }),
        onDone: [
          {
            guard: { type: 'isNamedTitle', params: ({ event }) => ({ title: event.output }) },
            target: 'changed',
            actions: [
              'countAttempt',
              assign({ title: ({ event }) => event.output, lastError: null }),
              emit(({ context, event }) => ({ type: 'title.changed' as const, conversationId: context.conversationId, title: event.output })),
            ],
          },
          { guard: 'isLastAttempt', target: 'gaveUp', actions: ['countAttempt', assign({ title: ({ event }) => event.output })] },
          { target: 'waiting', actions: ['countAttempt', assign({ title: ({ event }) => event.output, lastError: null })] },
        ],
        onError: [
          {
            guard: 'isLastAttempt',
            target: 'gaveUp',
            actions: ['countAttempt', assign({ lastError: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)) })],
          },
          {
            target: 'waiting',
            actions: ['countAttempt', assign({ lastError: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)) })],
          },
        ],
      },
    },
    changed: { type: 'final' },
    gaveUp: { type: 'final' },
    stopped: { type: 'final' },
  },
  output: ({ context }) => ({ title: context.title, changed: isNamed(context.title) }),
});

export type TitlePollingMachine = typeof titlePollingMachine;
