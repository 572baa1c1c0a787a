import type { SnapshotFrom } from 'xstate';
import { replyRatingMachine } from '../../../machines/reply-rating.machine';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';
import type { LeftOut } from '../../model/support/model-paths';

type Snap = SnapshotFrom<typeof replyRatingMachine>;

/** The comment a path writes after a thumbs down. */
export const COMMENT = 'Automated path test: it answered another question.';

/**
 * The person presses a thumb (the pressed one again clears it); after a thumbs down they write a comment and send
 * it, or skip it. The server saves (or, with a stub, fails); a second press while the first save is in flight
 * (the browser holds the server's answer to the first) shows at once and is saved once that answer (a success or a
 * failure) has come. Not generated, because a person cannot
 * cause them: an over-long comment (`comment.send` refused with its message: the text area stops at the limit, so
 * the trimmed comment never exceeds it), a thumb pressed while the comment dialog is open (the dialog is modal:
 * a press outside it lands on its underlay and closes it, which is `comment.skip`, and focus stays inside it).
 * Also left out: a send of nothing written (the same request as skip's first save).
 */
function eventsFor(s: Snap): Step[] {
  const thumbs: Step[] = [
    { type: 'rating.choose', rating: 'up' },
    { type: 'rating.choose', rating: 'down' },
  ];
  switch (valueName(s.value)) {
    case 'idle':
      return thumbs;
    case 'commenting':
      return [...(s.context.comment ? [{ type: 'comment.send' }] : [{ type: 'comment.edit', text: COMMENT }]), { type: 'comment.skip' }];
    case 'saving':
      return [
        // A second press while the first is saved (the browser holds the first save): only after a first press of
        // the up thumb, so that one path takes the transition.
        ...(s.context.saved === null && s.context.rating === 'up' ? [{ type: 'rating.choose', rating: 'down' }] : []),
        { type: 'xstate.done.actor.save', output: { message_id: 'm', rating: null, comment: null }, actorId: 'save' },
        { type: 'xstate.error.actor.save', error: new Error('500'), actorId: 'save' },
      ];
    case 'sendingComment':
      return [
        { type: 'xstate.done.actor.save', output: { message_id: 'm', rating: null, comment: null }, actorId: 'save' },
        { type: 'xstate.error.actor.save', error: new Error('500'), actorId: 'save' },
      ];
    default:
      return [];
  }
}


export { replyRatingMachine };
export const replyRatingPaths = asSteps<{ messageId: string; rating: null }>(
  coveringPaths(
    replyRatingMachine,
    maximalPaths({
      machine: replyRatingMachine,
      inputs: [{ messageId: 'm', rating: null }],
      events: eventsFor as never,
      // What the buttons show and whether a comment is written: a path presses each thumb a few times at most.
      key: (s) => JSON.stringify([s.value, s.context.rating, s.context.saved, s.context.sending, s.context.comment !== '']),
      simpleKey: (s) => JSON.stringify([s.value, s.context.rating]),
      edgeKeys: true,
    }),
  ),
);

/** What no browser can cause (test/e2e/paths/coverage.ts counts the rest); the header above says why. */
export const replyRatingUnforceable: LeftOut[] = [
  { why: 'an over-long comment: the text area stops at the limit', transitions: ['replyRating.commenting --comment.send#2--> (self)'] },
  { why: 'a thumb pressed while the comment dialog is open: the dialog is modal', transitions: ['replyRating.commenting --rating.choose#4--> replyRating.saving'] },
];
