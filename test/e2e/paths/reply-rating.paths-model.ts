import type { SnapshotFrom } from 'xstate';
import { replyRatingMachine } from '../../../machines/reply-rating.machine';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof replyRatingMachine>;

/** The comment a path writes after a thumbs down. */
export const COMMENT = 'Automated path test: it answered another question.';

/**
 * The person presses a thumb (the pressed one again clears it); after a thumbs down they write a comment and send
 * it, or skip it, or press a thumb instead. The server saves (or, with a stub, fails). Not generated: presses while
 * a save is in flight (the machine ignores them; a browser cannot hold the save open without a stub), an
 * over-long comment (the text area stops at the limit), a send of nothing written (the same request as skip's
 * first save), a thumb pressed while the comment dialog is open (the dialog holds the page: a press outside it
 * closes it, which is `comment.skip`).
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
      key: (s) => JSON.stringify([s.value, s.context.rating, s.context.saved, s.context.comment !== '']),
      simpleKey: (s) => JSON.stringify([s.value, s.context.rating]),
      edgeKeys: true,
    }),
  ),
);
