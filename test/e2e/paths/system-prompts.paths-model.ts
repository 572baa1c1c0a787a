import type { SnapshotFrom } from 'xstate';
import { SYSTEM_PROMPT_ACTIVATE_FAILED, SYSTEM_PROMPT_ACTIVATED } from '../../../contract/system-prompts-constants';
import { notice } from '../../../machines/notice';
import { systemPromptsMachine } from '../../../machines/system-prompts.machine';
import { asSteps, coveringPaths, maximalPaths, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof systemPromptsMachine>;

/** The client a path previews besides everyone (the test's own; the browser step knows its id). */
export const OWN_CLIENT = 'own-client';

/** The clients for the selectors: not read yet, read (the test's own among them), or failed ([]). */
const clientsRead = (s: Snap) => (s.context.clients === null ? null : s.context.clients.length > 0);

/**
 * The page's own part (machines/system-prompts.machine.ts): the composed prompt's preview and the clients for its
 * selectors. The browser holds every read of the preview and of the clients until the path says it is answered, so
 * each happens exactly where the path puts it: the clients' read (once) answers or fails (a stub) at any point; the
 * person chooses whose preview (everyone, or the test's client: only once the clients are read, the selector is
 * disabled before and offers only everyone after a failure), and changes prompts: a change done (activating or
 * deactivating the test's own prompt) reads the preview again, also while one is being read; a change that fails (a
 * stubbed activation) does not. The server answers the preview, or (a stub) fails it, and the person tries again.
 */
function eventsFor(s: Snap): Step[] {
  const clients: Step[] =
    s.context.clients === null
      ? [
          { type: 'xstate.done.actor.clients', output: [{ id: OWN_CLIENT, name: 'Own' }], actorId: 'clients' },
          { type: 'xstate.error.actor.clients', error: new Error('500'), actorId: 'clients' },
        ]
      : [];
  const choose: Step[] = clientsRead(s) ? [{ type: 'preview.choose', clientId: s.context.previewClientId === null ? OWN_CLIENT : null }] : [];
  const changes: Step[] = [...choose, { ...notice('success', SYSTEM_PROMPT_ACTIVATED) }, { ...notice('error', SYSTEM_PROMPT_ACTIVATE_FAILED) }];
  if (s.matches('previewing')) {
    return [
      { type: 'xstate.done.actor.preview', output: { system_prompt: 'composed', active_prompt_id: null }, actorId: 'preview' },
      { type: 'xstate.error.actor.preview', error: new Error('500'), actorId: 'preview' },
      ...clients,
      ...changes,
    ];
  }
  return [...clients, ...changes, ...(s.matches('failed') ? [{ type: 'preview.retry' }] : [])];
}

export { systemPromptsMachine };
export const systemPromptsPaths = asSteps<undefined>(
  coveringPaths(
    systemPromptsMachine,
    maximalPaths({
      machine: systemPromptsMachine,
      inputs: [undefined],
      events: eventsFor as never,
      key: (s) => JSON.stringify([s.value, s.context.previewClientId, clientsRead(s)]),
      simpleKey: (s) => JSON.stringify([s.value, clientsRead(s)]),
      edgeKeys: true,
    }),
  ),
);
