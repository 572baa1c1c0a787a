import { pathTo, paths } from '../../contract/api-paths';
import type { ClientList } from '../../contract/clients';
import type {
  CreateSystemPromptRequest,
  SystemPrompt,
  SystemPromptList,
  SystemPromptPreview,
  UpdateSystemPromptRequest,
} from '../../contract/system-prompts';
import { api } from './http';

/** Every system prompt (superuser only): everyone's first, then by client, the active one first in each. */
export async function fetchSystemPrompts(signal?: AbortSignal): Promise<SystemPrompt[]> {
  return (await api.get<SystemPromptList>(paths.systemPrompts, { signal })).data.prompts;
}

/** Created inactive. */
export async function createSystemPrompt(body: CreateSystemPromptRequest): Promise<SystemPrompt> {
  return (await api.post<SystemPrompt>(paths.systemPrompts, body)).data;
}

export async function updateSystemPrompt(id: string, body: UpdateSystemPromptRequest): Promise<SystemPrompt> {
  return (await api.put<SystemPrompt>(pathTo(paths.systemPrompt, { id }), body)).data;
}

export async function deleteSystemPrompt(id: string): Promise<void> {
  await api.delete<{ id: string }>(pathTo(paths.systemPrompt, { id }));
}

/** Makes it the active one of its scope (the one active there before is deactivated). */
export async function activateSystemPrompt(id: string): Promise<SystemPrompt> {
  return (await api.post<SystemPrompt>(pathTo(paths.systemPromptActivate, { id }))).data;
}

export async function deactivateSystemPrompt(id: string): Promise<SystemPrompt> {
  return (await api.post<SystemPrompt>(pathTo(paths.systemPromptDeactivate, { id }))).data;
}

/** The composed system prompt as a person of `clientId` gets it now (null: a person of no client). */
export async function previewSystemPrompt(clientId: string | null, signal?: AbortSignal): Promise<SystemPromptPreview> {
  return (await api.get<SystemPromptPreview>(paths.systemPromptPreview, { query: clientId ? { client_id: clientId } : {}, signal })).data;
}

const CHOICES_PAGE_SIZE = 100;

/** Every client's id and name, for the selectors (GET /clients/, page after page). */
export async function fetchClientChoices(signal?: AbortSignal): Promise<Array<{ id: string; name: string }>> {
  const choices: Array<{ id: string; name: string }> = [];
  for (let page = 1; ; page++) {
    const list = (await api.get<ClientList>(paths.clients, { query: { page, page_size: CHOICES_PAGE_SIZE }, signal })).data;
    choices.push(...list.clients.map((c) => ({ id: c.id, name: c.client_name })));
    if (page >= list.total_pages) return choices;
  }
}
