import type { SnapshotFrom } from 'xstate';
import { shareMachine } from '../../../machines/share.machine';
import { isLocalServer } from '../helpers/accounts';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof shareMachine>;

export const AFTER = 'xstate.after.COPIED.share.ready.copied';

/**
 * The person opens the modal (the path's start), copies, waits, tries again; the server gives the link (or, with
 * a stub, fails), the clipboard takes it (or, with a stub, refuses). Each state offers each of its events once:
 * copying is not offered again from `copied` (the same transition as from `idle`).
 */
function eventsFor(s: Snap): Step[] {
  switch (valueName(s.value)) {
    case 'loading':
      return [
        { type: 'xstate.done.actor.createLink', output: 'link', actorId: 'createLink' },
        { type: 'xstate.error.actor.createLink', error: new Error('500'), actorId: 'createLink' },
      ];
    case 'failed':
      return [{ type: 'share.retry' }];
    case 'ready.idle':
      return [{ type: 'share.copy' }];
    case 'ready.copying':
      return [
        { type: 'xstate.done.actor.copyText', output: undefined, actorId: 'copyText' },
        { type: 'xstate.error.actor.copyText', error: new Error('denied'), actorId: 'copyText' },
      ];
    case 'ready.copied':
      return [{ type: AFTER }];
    default:
      return [];
  }
}

/** Faults forced with stubs, so generated only locally: the link request failing, the clipboard refusing. */
const FAULTS = new Set(['xstate.error.actor.createLink', 'xstate.error.actor.copyText']);

export { shareMachine };
export const sharePaths = asSteps<{ conversationId: string }>(
  coveringPaths(
    shareMachine,
    maximalPaths({
      machine: shareMachine,
      inputs: [{ conversationId: 'c1' }],
      events: eventsFor as never,
      key: (s) => JSON.stringify(s.value),
      edgeKeys: true,
      filterEvents: (_s, e) => isLocalServer || !FAULTS.has(e.type),
    }),
  ),
);
