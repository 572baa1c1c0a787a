import { fromPromise } from 'xstate';
import type { ShareLink } from '../../../contract/shares';
import { copyTextActor } from '../../lib/copy-text-actor';
import { withAnswerStatus } from '../../lib/answer-status';
import { shareMachine, type ShareInput } from '../../../machines/share.machine';
import type { createShareLink, revokeShareLink } from '../../api/shares';

export interface ShareApi {
  createShareLink: typeof createShareLink;
  revokeShareLink: typeof revokeShareLink;
}

/**
 * The Share modal's machine with its side effects: the link from the server (its failures carry the server's
 * sentence and status, which decide the text and whether 'Try again' is offered), the copy into the clipboard,
 * stopping the share.
 */
export function defineShareMachine({ api }: { api: ShareApi }) {
  return shareMachine.provide({
    actors: {
      createLink: fromPromise<ShareLink, ShareInput>(({ input }) => withAnswerStatus(api.createShareLink(input.conversationId))),
      copyText: copyTextActor,
      revokeLink: fromPromise<unknown, { shareId: string }>(({ input }) => withAnswerStatus(api.revokeShareLink(input.shareId))),
    },
  });
}
