import { assign, setup } from 'xstate';
import { notProvided } from './not-provided';
import { notice } from './notice';
import { report } from './report';

/**
 * The Share modal of one conversation (spec chat-and-session.md section 2 "Share modal", section 4 "Share modal",
 * the Sharing texts of section 8). The chat-screen machine spawns it (id `share`) when the modal opens and stops
 * it when the modal closes, so everything here (the link, the copied flag) starts afresh with each opening.
 *
 * States: `loading` (tag `loading`: invokes `createLink`, POST /shares/conversations/{id}) -> `ready` with the
 * link, or `failed` ('Failed to get share link', with 'Try again': `share.retry`). In `ready`, `share.copy`
 * invokes `copyText` (the clipboard) in `copying`; success shows 'Link copied to clipboard' and sets the copied
 * flag (`ready.copied`, tag `copied`) for COPIED_MS, a failure shows 'Failed to copy link'.
 */

/** How long the copy button says the link was copied. */
export const COPIED_MS = 2000;

export const SHARE_LINK_FAILED = 'Failed to get share link';
export const LINK_COPIED = 'Link copied to clipboard';
export const COPY_LINK_FAILED = 'Failed to copy link';

export interface ShareInput {
  conversationId: string;
}

export interface ShareContext {
  conversationId: string;
  /** The read-only link, once the server gave it. */
  url: string | null;
}

export type ShareEvent = { type: 'share.copy' } | { type: 'share.retry' };

export const shareMachine = setup({
  types: {
    context: {} as ShareContext,
    events: {} as ShareEvent,
    input: {} as ShareInput,
    tags: {} as 'loading' | 'copied',
  },
  actors: {
    createLink: notProvided<string, ShareInput>('createLink'),
    copyText: notProvided<void, { text: string }>('copyText'),
  },
  delays: { COPIED: COPIED_MS },
  actions: {
    reportCopied: report(() => notice('success', LINK_COPIED)),
    reportCopyFailed: report(() => notice('error', COPY_LINK_FAILED)),
  },
}).createMachine({
  id: 'share',
  context: ({ input }) => ({ conversationId: input.conversationId, url: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'createLink',
        src: 'createLink',
        input: ({ context }) => ({ conversationId: context.conversationId }),
        onDone: { target: 'ready', actions: assign({ url: ({ event }) => event.output }) },
        onError: { target: 'failed' },
      },
    },
    failed: {
      on: { 'share.retry': 'loading' },
    },
    ready: {
      initial: 'idle',
      on: { 'share.copy': '.copying' },
      states: {
        idle: {},
        copying: {
          // A second click while the clipboard answers is the same copy.
          on: { 'share.copy': {} },
          invoke: {
            id: 'copyText',
            src: 'copyText',
            input: ({ context }) => ({ text: context.url ?? '' }),
            onDone: { target: 'copied', actions: 'reportCopied' },
            onError: { target: 'idle', actions: 'reportCopyFailed' },
          },
        },
        copied: {
          tags: ['copied'],
          after: { COPIED: 'idle' },
        },
      },
    },
  },
});

export type ShareMachine = typeof shareMachine;
