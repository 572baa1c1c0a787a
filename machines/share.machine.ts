import { assign, setup } from 'xstate';
import type { ShareLink } from '../contract/shares';
import { answerStatusOf, retryCanHelp } from './answer-status';
import { serverDetailOf } from './load-failure';
import { notProvided } from './not-provided';
import { notice } from './notice';
import { report, type ReportsTo } from './report';

/**
 * The Share modal of one conversation (spec chat-and-session.md section 2 "Share modal", section 4 "Share modal",
 * the Sharing texts of section 8; stopping a share: issue 28). The chat-screen machine spawns it (id `share`) when
 * the modal opens and stops it when the modal closes, so everything here (the link, the copied flag) starts afresh
 * with each opening.
 *
 * States: `loading` (tag `loading`: invokes `createLink`, POST /shares/conversations/{id}) -> `ready` with the
 * link, or `failed`. The spec's two failure texts are told apart as the shared view tells its own: 'Failed to get
 * share link' when the server answered (its sentence beside it), 'Error creating share link' when it did not.
 * `share.retry` asks again, only where that can help (no answer, a 5xx; not a 404 'Conversation not found').
 * In `ready`, `share.copy` invokes `copyText` (the clipboard) in `copying`; success shows 'Link copied to
 * clipboard' and sets the copied flag (`ready.copied`, tag `copied`) for COPIED_MS, a failure shows 'Failed to copy
 * link'. `share.stop` asks to confirm (`confirmingStop`); `share.stopConfirm` invokes `revokeLink` (DELETE
 * /shares/{shareId}) in `stopping` (tag `busy`) -> `stopped` ('Sharing stopped': the link opens nothing from now
 * on; a 404 means it was already gone, the same outcome), or back to `ready` with 'Failed to stop sharing'.
 * `share.again` in `stopped` makes a new link (the old one stays dead).
 */

/** How long the copy button says the link was copied. */
export const COPIED_MS = 2000;

export const SHARE_LINK_FAILED = 'Failed to get share link';
export const SHARE_LINK_ERROR = 'Error creating share link';
export const LINK_COPIED = 'Link copied to clipboard';
export const COPY_LINK_FAILED = 'Failed to copy link';
export const SHARING_STOPPED = 'Sharing stopped';
export const STOP_SHARING_FAILED = 'Failed to stop sharing';
/** The confirmation's question: a link already sent to colleagues will stop working for them. */
export const STOP_SHARING_CONFIRM = 'Stop sharing this conversation? The link will stop working for everyone who has it.';

export interface ShareInput extends ReportsTo {
  conversationId: string;
}

export interface ShareFailure {
  text: string;
  /** The server's sentence, when it answered. */
  detail: string | null;
  /** Whether 'Try again' is offered. */
  canRetry: boolean;
}

export interface ShareContext extends ReportsTo {
  conversationId: string;
  /** The read-only link, once the server gave it. */
  url: string | null;
  /** The link's id (what stopping it names). */
  shareId: string | null;
  failure: ShareFailure | null;
}

export type ShareEvent =
  | { type: 'share.copy' }
  | { type: 'share.retry' }
  | { type: 'share.stop' }
  | { type: 'share.stopConfirm' }
  | { type: 'share.stopCancel' }
  | { type: 'share.again' };

const failureOf = (error: unknown): ShareFailure => {
  const detail = serverDetailOf(error);
  const answered = answerStatusOf(error) !== 0 || detail !== null;
  return { text: answered ? SHARE_LINK_FAILED : SHARE_LINK_ERROR, detail, canRetry: retryCanHelp(error) };
};

export const shareMachine = setup({
  types: {
    context: {} as ShareContext,
    events: {} as ShareEvent,
    input: {} as ShareInput,
    tags: {} as 'loading' | 'copied' | 'busy',
  },
  actors: {
    createLink: notProvided<ShareLink, ShareInput>('createLink'),
    copyText: notProvided<void, { text: string }>('copyText'),
    revokeLink: notProvided<unknown, { shareId: string }>('revokeLink'),
  },
  delays: { COPIED: COPIED_MS },
  guards: {
    retryCanHelp: ({ context }) => context.failure?.canRetry === true,
    linkAlreadyGone: ({ event }) => answerStatusOf((event as { error?: unknown }).error) === 404,
  },
  actions: {
    reportCopied: report(() => notice('success', LINK_COPIED)),
    reportCopyFailed: report(() => notice('error', COPY_LINK_FAILED)),
    reportStopped: report(() => notice('success', SHARING_STOPPED)),
    // The only refusal the server gives is a 404 (already gone: stopped all the same); a 5xx's sentence helps nobody.
    reportStopFailed: report(() => notice('error', STOP_SHARING_FAILED)),
    forgetLink: assign({ url: null, shareId: null }),
  },
}).createMachine({
  id: 'share',
  context: ({ input }) => ({ conversationId: input.conversationId, url: null, shareId: null, failure: null, parent: input.parent }),
  initial: 'loading',
  states: {
    loading: {
      description: 'The Share modal asks the server for the read-only link (a spinner shows).',
      tags: ['loading'],
      entry: assign({ failure: null }),
      invoke: {
        id: 'createLink',
        src: 'createLink',
        input: ({ context }) => ({ conversationId: context.conversationId }),
        onDone: { target: 'ready', actions: assign({ url: ({ event }) => event.output.share_url, shareId: ({ event }) => event.output.share_id }) },
        onError: { target: 'failed', actions: assign({ failure: ({ event }) => failureOf(event.error) }) },
      },
    },
    failed: {
      description: "The link could not be had: the failure's text, and 'Try again' where asking again can help.",
      on: { 'share.retry': { guard: 'retryCanHelp', target: 'loading' } },
    },
    ready: {
      description: 'The modal shows the link with Copy link and Stop sharing.',
      initial: 'idle',
      on: { 'share.copy': '.copying', 'share.stop': 'confirmingStop' },
      states: {
        idle: { description: 'The link is shown, ready to copy.' },
        copying: {
          description: 'The link is being put on the clipboard.',
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
          description: 'The copy button says the link was copied, for a moment.',
          tags: ['copied'],
          after: { COPIED: 'idle' },
        },
      },
    },
    confirmingStop: {
      description: 'Asks before the link stops working for everyone who has it.',
      on: { 'share.stopConfirm': 'stopping', 'share.stopCancel': 'ready' },
    },
    stopping: {
      description: 'The link is being stopped; the modal waits, busy.',
      tags: ['busy'],
      invoke: {
        id: 'revokeLink',
        src: 'revokeLink',
        input: ({ context }) => ({ shareId: context.shareId ?? '' }),
        onDone: { target: 'stopped', actions: ['forgetLink', 'reportStopped'] },
        onError: [
          { guard: 'linkAlreadyGone', target: 'stopped', actions: ['forgetLink', 'reportStopped'] },
          { target: 'ready', actions: 'reportStopFailed' },
        ],
      },
    },
    stopped: {
      description: 'The link opens nothing any more; sharing again makes a new one.',
      on: { 'share.again': 'loading' },
    },
  },
});

export type ShareMachine = typeof shareMachine;
