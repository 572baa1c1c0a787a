import { fromPromise } from 'xstate';
import type { SystemPromptPreview } from '../../../contract/system-prompts';
import { pagerMachine, type PageRequest, type PageResult } from '../../../machines/pager.machine';
import { recordEditorMachine, type Draft } from '../../../machines/record-editor.machine';
import type { ClientChoice, SaveSystemPromptRequest, SystemPromptAct } from '../../../machines/system-prompts.machine';
import type {
  activateSystemPrompt,
  createSystemPrompt,
  deactivateSystemPrompt,
  deleteSystemPrompt,
  fetchClientChoices,
  fetchSystemPrompts,
  previewSystemPrompt,
  updateSystemPrompt,
} from '../../api/system-prompts';
import { withAnswerStatus } from '../../lib/answer-status';

/** The API functions the System Prompts page calls (src/api/system-prompts.ts; tests pass fakes). */
export interface SystemPromptsApi {
  fetchSystemPrompts: typeof fetchSystemPrompts;
  createSystemPrompt: typeof createSystemPrompt;
  updateSystemPrompt: typeof updateSystemPrompt;
  deleteSystemPrompt: typeof deleteSystemPrompt;
  activateSystemPrompt: typeof activateSystemPrompt;
  deactivateSystemPrompt: typeof deactivateSystemPrompt;
  previewSystemPrompt: typeof previewSystemPrompt;
  fetchClientChoices: typeof fetchClientChoices;
}

/**
 * The System Prompts page's side effects (machines/system-prompts.machine.ts): the editor's list (every prompt,
 * one page), save (create or update) and acts (activate, deactivate, delete), the composed prompt's preview and
 * the clients for the selectors. Failures carry the server's sentence and status. Built once at module level:
 * `systemPromptsMachine.provide({ actors: defineSystemPromptsActors({ api }) })`.
 */
export function defineSystemPromptsActors({ api }: { api: SystemPromptsApi }) {
  const editor = recordEditorMachine.provide({
    actors: {
      list: pagerMachine.provide({
        actors: {
          fetchPage: fromPromise<PageResult, PageRequest>(async ({ signal }) => {
            const items = await withAnswerStatus(api.fetchSystemPrompts(signal));
            return { items, page: 1, total: items.length, totalPages: 1 };
          }),
        },
      }),
      save: fromPromise<unknown, unknown>(({ input }) => {
        const request = input as SaveSystemPromptRequest;
        return withAnswerStatus(
          request.kind === 'create' ? api.createSystemPrompt(request.body) : api.updateSystemPrompt(request.promptId, request.body),
        );
      }),
      act: fromPromise<unknown, Draft>(({ input }) => {
        const act = input as unknown as SystemPromptAct;
        const call: Promise<unknown> =
          act.kind === 'activate'
            ? api.activateSystemPrompt(act.promptId)
            : act.kind === 'deactivate'
              ? api.deactivateSystemPrompt(act.promptId)
              : api.deleteSystemPrompt(act.promptId);
        return withAnswerStatus(call);
      }),
    },
  });
  return {
    editor,
    preview: fromPromise<SystemPromptPreview, { clientId: string | null }>(({ input, signal }) =>
      withAnswerStatus(api.previewSystemPrompt(input.clientId, signal)),
    ),
    clients: fromPromise<ClientChoice[], void>(({ signal }) => withAnswerStatus(api.fetchClientChoices(signal))),
  };
}
