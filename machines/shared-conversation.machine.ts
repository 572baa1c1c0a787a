import { assign, setup } from 'xstate';
import type { SharedConversation } from '../contract/shares';
import { retryCanHelp } from './answer-status';
import { serverDetailOf } from './load-failure';
import { notProvided } from './not-provided';

/**
 * The read-only view of a shared conversation (/share/{shared_id}; spec chat-and-session.md "Shared view" and the
 * Sharing texts of section 8): `loading` (tag `loading`, invokes `load`) -> `shown`, or `empty` ('No messages
 * found in shared conversation'), or `unavailable`, or `failed`.
 * - `unavailable`: the server refused the link (404: revoked by its owner, never existed, or another
 *   organisation's; any other 4xx alike). It says so once, 'This shared link is no longer available', and offers
 *   no 'Try again': the same link gets the same answer (issue 28).
 * - `failed`: no answer or a failure of the server (5xx, 408, 429), where asking again may work; `failure` says
 *   what went wrong: 'Failed to load shared conversation' with the server's sentence when it answered, else
 *   'Error loading shared conversation' (no answer). `retry` loads again.
 */
export const LOAD_SHARED_FAILED = 'Failed to load shared conversation';
export const LOAD_SHARED_ERROR = 'Error loading shared conversation';
export const NO_SHARED_MESSAGES = 'No messages found in shared conversation';
/** A link that no longer opens anything (revoked, unknown, or not for this organisation: not told apart). */
export const LINK_UNAVAILABLE = 'This shared link is no longer available';
export const LINK_UNAVAILABLE_HINT = 'Its owner may have stopped sharing it. Ask them for a new link.';
/** Spec: the title falls back to this. */
export const SHARED_TITLE_FALLBACK = 'Shared Conversation';

export interface SharedConversationInput {
  shareId: string;
}

export interface SharedConversationContext {
  shareId: string;
  shared: SharedConversation | null;
  failure: { text: string; detail: string | null } | null;
}

export const sharedConversationMachine = setup({
  types: {
    context: {} as SharedConversationContext,
    events: {} as { type: 'retry' },
    input: {} as SharedConversationInput,
    tags: {} as 'loading',
  },
  actors: {
    // Rejects with the server's sentence as `serverDetail` when it answered (src/ builds it with loadFailure).
    load: notProvided<SharedConversation, SharedConversationInput>('load'),
  },
  guards: {
    linkIsRefused: ({ event }) => !retryCanHelp((event as unknown as { error: unknown }).error),
    hasNoMessages: ({ event }) => (event as unknown as { output: SharedConversation }).output.messages.length === 0,
  },
}).createMachine({
  id: 'sharedConversation',
  context: ({ input }) => ({ shareId: input.shareId, shared: null, failure: null }),
  initial: 'loading',
  states: {
    loading: {
      description: 'The shared conversation is being loaded for the visitor (a spinner shows).',
      tags: ['loading'],
      entry: assign({ failure: null }),
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ shareId: context.shareId }),
        onDone: [
          { guard: 'hasNoMessages', target: 'empty', actions: assign({ shared: ({ event }) => event.output }) },
          { target: 'shown', actions: assign({ shared: ({ event }) => event.output }) },
        ],
        onError: [
          { guard: 'linkIsRefused', target: 'unavailable' },
          {
            target: 'failed',
            actions: assign({
              failure: ({ event }) => {
                const detail = serverDetailOf(event.error);
                return detail === null ? { text: LOAD_SHARED_ERROR, detail: null } : { text: LOAD_SHARED_FAILED, detail };
              },
            }),
          },
        ],
      },
    },
    shown: { description: 'The visitor reads the shared conversation, read-only.' },
    empty: { description: 'The shared conversation has no messages: the visitor is told so.' },
    unavailable: { description: 'The link was stopped or never existed: the visitor is told it is not available.' },
    failed: { description: 'The conversation could not be loaded: the failure is shown with Try again.', on: { retry: 'loading' } },
  },
});

/** The heading of the shared view: the conversation's title, else the spec's fallback. */
export const sharedTitle = (shared: SharedConversation | null) => shared?.conversation.title.trim() || SHARED_TITLE_FALLBACK;
