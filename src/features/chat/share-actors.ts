import { fromPromise } from 'xstate';
import { copyTextActor } from '../../lib/copy-text-actor';
import { shareMachine, type ShareInput } from '../../../machines/share.machine';
import type { createShareLink } from '../../api/shares';

export interface ShareApi {
  createShareLink: typeof createShareLink;
}

/** The Share modal's machine with its side effects: the link from the server, the copy into the clipboard. */
export function defineShareMachine({ api }: { api: ShareApi }) {
  return shareMachine.provide({
    actors: {
      createLink: fromPromise<string, ShareInput>(({ input }) => api.createShareLink(input.conversationId)),
      copyText: copyTextActor,
    },
  });
}
