import { fromPromise } from 'xstate';
import type { PromptEntry } from '../../../contract/prompt-library';
import { pagerMachine, type PageRequest, type PageResult } from '../../../machines/pager.machine';
import { promptFormMachine, type SavePromptRequest } from '../../../machines/prompt-form.machine';
import { promptLibraryMachine } from '../../../machines/prompt-library.machine';
import type { createPrompt, deletePrompt, fetchPrompt, fetchPrompts, updatePrompt } from '../../api/prompt-library';
import { copyTextActor } from '../../lib/copy-text-actor';
import { withServerDetail } from '../../lib/load-failure';

export interface PromptLibraryApi {
  fetchPrompts: typeof fetchPrompts;
  fetchPrompt: typeof fetchPrompt;
  createPrompt: typeof createPrompt;
  updatePrompt: typeof updatePrompt;
  deletePrompt: typeof deletePrompt;
}


/** The prompt form (save a message, a new prompt, an edit): POST without an id, PUT with one. */
export function definePromptFormMachine({ api }: { api: PromptLibraryApi }) {
  return promptFormMachine.provide({
    actors: {
      savePrompt: fromPromise<PromptEntry, SavePromptRequest>(({ input: { id, prompt, tags } }) =>
        withServerDetail(id === null ? api.createPrompt({ prompt, tags }) : api.updatePrompt(id, { prompt, tags })),
      ),
    },
  });
}

/** The Prompt Library modal's machine with its list, its form and its calls. */
export function definePromptLibraryMachine({ api }: { api: PromptLibraryApi }) {
  return promptLibraryMachine.provide({
    actors: {
      list: pagerMachine.provide({
        actors: {
          fetchPage: fromPromise<PageResult, PageRequest>(async ({ input, signal }) => {
            const tag = typeof input.filters.tag === 'string' ? input.filters.tag : null;
            const list = await api.fetchPrompts({ page: input.page, limit: input.pageSize, search: input.query, tag }, signal);
            return { items: list.data, page: list.page, total: list.total, totalPages: list.total_pages };
          }),
        },
      }),
      form: definePromptFormMachine({ api }),
      loadPrompt: fromPromise<PromptEntry, { id: string }>(({ input, signal }) => api.fetchPrompt(input.id, signal)),
      deletePrompt: fromPromise<unknown, { id: string }>(({ input }) => api.deletePrompt(input.id)),
      copyText: copyTextActor,
    },
  });
}
