import { assign, setup, type DoneActorEvent, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import type { ChatTools } from '../contract/chat-tools';
import { notProvided } from './not-provided';

/**
 * What the server has set up for the chat's tools (GET /chat/tools; issue 28, honest controls): whether web
 * browsing can search (SEARCH_PROVIDER) and whether images are demo ones (no IMAGES_MODEL). The chat-screen
 * machine invokes it (id `tools`) for its whole life; the input box reads `tools` to show browsing disabled with
 * its reason and label demo images.
 *
 * `loading` (invokes `loadTools`) -> `loaded` (`tools` set). A failed load goes to `failed` and tries again after
 * RETRY_MS, up to MAX_ATTEMPTS loads in all; meanwhile `tools` stays null and the controls show what the package
 * allows, as before (the server still answers an unavailable tool with its own notice).
 */

export const TOOLS_RETRY_MS = 5000;
export const TOOLS_MAX_ATTEMPTS = 3;

export interface ChatToolsContext {
  tools: ChatTools | null;
  attempts: number;
}

type ActorOutcome = DoneActorEvent<ChatTools, 'loadTools'> | ErrorActorEvent<unknown, 'loadTools'>;

export const chatToolsMachine = setup({
  types: {
    context: {} as ChatToolsContext,
    events: {} as ActorOutcome,
    children: {} as { loadTools: 'loadTools' },
  },
  actors: {
    loadTools: notProvided<ChatTools, void>('loadTools'),
  },
  delays: { TOOLS_RETRY_MS },
  guards: {
    mayRetry: ({ context }) => context.attempts < TOOLS_MAX_ATTEMPTS,
  },
}).createMachine({
  id: 'chatTools',
  context: { tools: null, attempts: 0 },
  initial: 'loading',
  states: {
    loading: {
      description: 'Asking the server what its tools can do.',
      entry: assign({ attempts: ({ context }) => context.attempts + 1 }),
      invoke: {
        id: 'loadTools',
        src: 'loadTools',
        onDone: { target: 'loaded', actions: assign({ tools: ({ event }) => event.output }) },
        onError: 'failed',
      },
    },
    failed: {
      description: 'The load failed: the controls show what the package allows until a later load answers.',
      after: { TOOLS_RETRY_MS: { guard: 'mayRetry', target: 'loading' } },
    },
    loaded: { type: 'final', description: 'Known for the rest of the session (the server’s configuration is fixed at start).' },
  },
});

export type ChatToolsSnapshot = SnapshotFrom<typeof chatToolsMachine>;
