import { assertEvent, assign, setup } from 'xstate';
import type { ReplyRatingRequest, ReplyRatingResult } from '../contract/feedback';
import {
  RATING_COMMENT_MAX_LENGTH,
  RATING_COMMENT_SAVED,
  RATING_COMMENT_TOO_LONG,
  RATING_FAILED,
  type ReplyRating,
} from '../contract/feedback-constants';
import { serverDetailOf } from './load-failure';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { report } from './report';

/**
 * Thumbs up / down under one assistant reply (issue 28; not in the spec): a toggle pair, stored per person per
 * reply on the server and shown again after a reload (the messages carry the person's rating).
 *
 * States: `idle`; `saving` (tag `busy`, invokes `save`): the chosen thumb shows at once and goes back to what the
 * server had if the save fails ('Failed to save your rating', or the server's sentence). A press while a save is in
 * flight shows at once too and is saved when that save ends, so the server gets the choices in order and keeps the
 * newest. Choosing the thumb that is already pressed clears the rating. A thumbs down opens `commenting`: an
 * optional short comment ('What went wrong?'), sent with `comment.send` (`sendingComment`, tag `busy`) or dismissed
 * with `comment.skip`; a failed send keeps the text. A thumb chosen while commenting leaves the comment and saves
 * that choice.
 */

export interface ReplyRatingInput {
  messageId: string;
  /** What the server says the person chose (the messages payload), null for none. */
  rating: ReplyRating | null;
}

export interface ReplyRatingContext {
  messageId: string;
  /** What the buttons show: the choice being saved, or the saved one. */
  rating: ReplyRating | null;
  /** The server's rating, restored when a save fails. */
  saved: ReplyRating | null;
  /** The choice the save in flight sends (what `saved` becomes when it succeeds). */
  sending: ReplyRating | null;
  comment: string;
  commentError: string | null;
}

export type ReplyRatingEvent =
  | { type: 'rating.choose'; rating: ReplyRating }
  | { type: 'comment.edit'; text: string }
  | { type: 'comment.send' }
  | { type: 'comment.skip' };

export interface SaveRatingRequest {
  messageId: string;
  body: ReplyRatingRequest;
}

/** The press of a thumb: the pressed one again clears the rating. */
export const nextRating = (shown: ReplyRating | null, pressed: ReplyRating): ReplyRating | null => (shown === pressed ? null : pressed);

export const replyRatingMachine = setup({
  types: {
    context: {} as ReplyRatingContext,
    events: {} as ReplyRatingEvent,
    input: {} as ReplyRatingInput,
    emitted: {} as Notice,
    tags: {} as 'busy',
  },
  actors: {
    save: notProvided<ReplyRatingResult, SaveRatingRequest>('save'),
  },
  guards: {
    ratedDown: ({ context }) => context.rating === 'down',
    choiceChanged: ({ context }) => context.rating !== context.sending,
    commentFits: ({ context }) => context.comment.trim().length <= RATING_COMMENT_MAX_LENGTH,
  },
  actions: {
    choose: assign(({ context, event }) => {
      assertEvent(event, 'rating.choose');
      return { rating: nextRating(context.rating, event.rating), comment: '', commentError: null };
    }),
    send: assign(({ context }) => ({ sending: context.rating })),
    confirm: assign(({ context }) => ({ saved: context.sending })),
    revert: assign(({ context }) => ({ rating: context.saved })),
    clearComment: assign({ comment: '', commentError: null }),
    reportCommentSaved: report(() => notice('success', RATING_COMMENT_SAVED)),
    reportFailed: report(({ event }: { event: { error?: unknown } }) => notice('error', serverDetailOf(event.error) ?? RATING_FAILED)),
  },
}).createMachine({
  id: 'replyRating',
  context: ({ input }) => ({ messageId: input.messageId, rating: input.rating, saved: input.rating, sending: input.rating, comment: '', commentError: null }),
  initial: 'idle',
  states: {
    idle: {
      description: 'The thumbs show the saved rating.',
      on: { 'rating.choose': { target: 'saving', actions: 'choose' } },
    },
    saving: {
      description:
        'The chosen thumb shows already; the server is saving it. Another press shows at once and is saved when this save ends.',
      tags: ['busy'],
      entry: 'send',
      // A quick second press is never lost, and never overtaken: dropping the save in flight would not stop its PUT,
      // which could reach the server after the newer one and be what it keeps. So the newest choice waits for it.
      on: { 'rating.choose': { actions: 'choose' } },
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => ({ messageId: context.messageId, body: { rating: context.sending, comment: null } }),
        onDone: [
          { guard: 'choiceChanged', target: 'saving', reenter: true, actions: 'confirm' },
          { guard: 'ratedDown', target: 'commenting', actions: 'confirm' },
          { target: 'idle', actions: 'confirm' },
        ],
        // A newer choice is still to be saved: it is what the person wants now, so it is tried rather than a failure
        // shown for the one they already changed.
        onError: [
          { guard: 'choiceChanged', target: 'saving', reenter: true },
          { target: 'idle', actions: ['revert', 'reportFailed'] },
        ],
      },
    },
    commenting: {
      description: 'Rated down: an optional comment on what went wrong.',
      on: {
        'comment.edit': { actions: assign(({ event }) => ({ comment: event.text, commentError: null })) },
        'comment.send': [
          { guard: 'commentFits', target: 'sendingComment' },
          { actions: assign({ commentError: RATING_COMMENT_TOO_LONG }) },
        ],
        'comment.skip': { target: 'idle', actions: 'clearComment' },
        'rating.choose': { target: 'saving', actions: 'choose' },
      },
    },
    sendingComment: {
      description: 'The comment goes to the server with the thumbs down.',
      tags: ['busy'],
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => ({ messageId: context.messageId, body: { rating: 'down', comment: context.comment.trim() || null } }),
        onDone: { target: 'idle', actions: ['clearComment', 'reportCommentSaved'] },
        onError: { target: 'commenting', actions: 'reportFailed' },
      },
    },
  },
});

export type ReplyRatingMachine = typeof replyRatingMachine;
