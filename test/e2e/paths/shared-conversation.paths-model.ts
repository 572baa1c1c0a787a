import type { SnapshotFrom } from 'xstate';
import type { SharedConversation } from '../../../contract/shares';
import { sharedConversationMachine } from '../../../machines/shared-conversation.machine';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof sharedConversationMachine>;

/** A failure as src/lib/answer-status.ts makes it: the server's sentence and the HTTP status (0: no answer). */
const failure = (status: number, serverDetail: string | null) => Object.assign(new Error(`HTTP ${status}`), { status, serverDetail });
/** The link refused (404: revoked by its owner), a server fault (a stubbed 500), a dropped connection (a stubbed abort). */
export const REFUSED = failure(404, 'Shared conversation not found');
export const SERVER_FAULT = failure(500, 'Internal Server Error');
export const NO_ANSWER = failure(0, null);

/** The model's shared conversation: its words are the server's (the steps read them from the screen). */
const at = '2026-01-01T00:00:00.000Z';
const SHARED: SharedConversation = {
  conversation: { id: 'c1', title: 'Shared', created_at: at },
  messages: [
    { id: 'm1', content: 'question', sender: 'user', created_at: at },
    { id: 'm2', content: 'reply', sender: 'Assistant', created_at: at },
  ],
};
export const EMPTY: SharedConversation = { ...SHARED, messages: [] };

/**
 * A colleague opens a share link: the server answers the conversation; or the link was stopped by its owner (a
 * real revoked link); or, forced in the browser with a stub, the answer has no messages, the server fails (500)
 * or does not answer (dropped connection). After a failure the person presses Try again. All of it is a person's
 * doing or the browser's, so the same paths run locally and against a deployment.
 */
function eventsFor(s: Snap): Step[] {
  switch (valueName(s.value)) {
    case 'loading':
      return [
        { type: 'xstate.done.actor.load', output: SHARED, actorId: 'load' },
        { type: 'xstate.done.actor.load', output: EMPTY, actorId: 'load' },
        { type: 'xstate.error.actor.load', error: REFUSED, actorId: 'load' },
        { type: 'xstate.error.actor.load', error: SERVER_FAULT, actorId: 'load' },
        { type: 'xstate.error.actor.load', error: NO_ANSWER, actorId: 'load' },
      ];
    case 'failed':
      return [{ type: 'retry' }];
    default:
      return [];
  }
}

export { sharedConversationMachine };
/** The fewest of the longest paths that reach every state and transition the model reaches. */
export const sharedConversationPaths = asSteps<{ shareId: string }>(
  coveringPaths(
    sharedConversationMachine,
    maximalPaths({
      machine: sharedConversationMachine,
      inputs: [{ shareId: 'AbCdEfGhIjKlMnOpQrStUvWx' }],
      events: eventsFor as never,
      key: (s) => JSON.stringify([s.value, s.context.failure?.text ?? null]),
      edgeKeys: true,
    }),
  ),
);
