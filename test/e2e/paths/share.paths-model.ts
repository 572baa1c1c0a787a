import type { SnapshotFrom } from 'xstate';
import { shareMachine } from '../../../machines/share.machine';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof shareMachine>;

export const AFTER = 'xstate.after.COPIED.share.ready.copied';

/** A failure as src/lib/answer-status.ts makes it: the server's sentence and the HTTP status (0: no answer). */
const failure = (status: number, serverDetail: string | null) => Object.assign(new Error(`HTTP ${status}`), { status, serverDetail });
/** A server fault (a stubbed 500) and a dropped connection (a stubbed abort): both offer 'Try again'. */
export const SERVER_FAULT = failure(500, 'Internal Server Error');
export const NO_ANSWER = failure(0, null);
/** Stopping a link already stopped elsewhere (another tab, another device): the server's 404, stopped all the same. */
export const ALREADY_GONE = failure(404, 'Share not found');

/**
 * The person opens the modal (the path's start), copies, waits, tries again, stops sharing (or thinks better of
 * it) and makes a new link; the server gives the link (or, with a stub, fails or does not answer), the clipboard
 * takes it (or, with a stub, refuses; or, held, lets a second click land while it answers), the server stops the
 * share (or, with a stub, fails; or answers 404 because the link was stopped elsewhere meanwhile). Each state offers
 * each of its events once: copying is not offered again from `copied` (the same transition as from `idle`).
 */
function eventsFor(s: Snap): Step[] {
  switch (valueName(s.value)) {
    case 'loading':
      return [
        { type: 'xstate.done.actor.createLink', output: { share_url: 'link', share_id: 'id' }, actorId: 'createLink' },
        { type: 'xstate.error.actor.createLink', error: SERVER_FAULT, actorId: 'createLink' },
        { type: 'xstate.error.actor.createLink', error: NO_ANSWER, actorId: 'createLink' },
      ];
    case 'failed':
      return [{ type: 'share.retry' }];
    case 'ready.idle':
      return [{ type: 'share.copy' }, { type: 'share.stop' }];
    case 'confirmingStop':
      return [{ type: 'share.stopConfirm' }, { type: 'share.stopCancel' }];
    case 'stopping':
      return [
        { type: 'xstate.done.actor.revokeLink', output: undefined, actorId: 'revokeLink' },
        { type: 'xstate.error.actor.revokeLink', error: SERVER_FAULT, actorId: 'revokeLink' },
        { type: 'xstate.error.actor.revokeLink', error: ALREADY_GONE, actorId: 'revokeLink' },
      ];
    case 'stopped':
      return [{ type: 'share.again' }];
    case 'ready.copying':
      return [
        { type: 'share.copy' },
        { type: 'xstate.done.actor.copyText', output: undefined, actorId: 'copyText' },
        { type: 'xstate.error.actor.copyText', error: new Error('denied'), actorId: 'copyText' },
      ];
    case 'ready.copied':
      return [{ type: AFTER }];
    default:
      return [];
  }
}


export { shareMachine };
export const sharePaths = asSteps<{ conversationId: string }>(
  coveringPaths(
    shareMachine,
    maximalPaths({
      machine: shareMachine,
      inputs: [{ conversationId: 'c1' }],
      events: eventsFor as never,
      key: (s) => JSON.stringify([s.value, s.context.failure?.text ?? null]),
      edgeKeys: true,
    }),
  ),
);
