import type { SnapshotFrom } from 'xstate';
import { SYSTEM_PROMPT_ACTIVATE_FAILED, SYSTEM_PROMPT_ACTIVATED } from '../../../contract/system-prompts-constants';
import { notice } from '../../../machines/notice';
import { systemPromptsMachine } from '../../../machines/system-prompts.machine';
import { asSteps, coveringPaths, maximalPaths, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof systemPromptsMachine>;

/** The client a path previews besides everyone (the test's own; the browser step knows its id). */
export const OWN_CLIENT = 'own-client';

/**
 * The page's own part (machines/system-prompts.machine.ts): the composed prompt's preview. The person chooses whose
 * preview (everyone, or the test's client), and changes prompts: a change done (activating or deactivating the test's
 * own prompt) reads the preview again; a change that fails (a stubbed activation) does not. The server answers the
 * preview, or (a stub) fails it, and the person tries again. Not generated: what a person cannot time in a browser —
 * the clients' read (once, at the start) and choosing or changing while a preview is being read.
 */
function eventsFor(s: Snap): Step[] {
  if (s.matches('previewing')) {
    return [
      { type: 'xstate.done.actor.preview', output: { system_prompt: 'composed', active_prompt_id: null }, actorId: 'preview' },
      { type: 'xstate.error.actor.preview', error: new Error('500'), actorId: 'preview' },
    ];
  }
  const changes: Step[] = [
    { type: 'preview.choose', clientId: s.context.previewClientId === null ? OWN_CLIENT : null },
    { ...notice('success', SYSTEM_PROMPT_ACTIVATED) },
    { ...notice('error', SYSTEM_PROMPT_ACTIVATE_FAILED) },
  ];
  return s.matches('failed') ? [...changes, { type: 'preview.retry' }] : changes;
}


export { systemPromptsMachine };
export const systemPromptsPaths = asSteps<undefined>(
  coveringPaths(
    systemPromptsMachine,
    maximalPaths({
      machine: systemPromptsMachine,
      inputs: [undefined],
      events: eventsFor as never,
      key: (s) => JSON.stringify([s.value, s.context.previewClientId]),
      simpleKey: (s) => JSON.stringify(s.value),
      edgeKeys: true,
    }),
  ),
);
