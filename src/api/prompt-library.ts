import { pathTo, paths } from '../../contract/api-paths';
import type { PromptEntry, PromptList, PromptRequest } from '../../contract/prompt-library';
import { api } from './http';

export interface PromptQuery {
  page: number;
  limit: number;
  search: string;
  tag: string | null;
}

export async function fetchPrompts(q: PromptQuery, signal?: AbortSignal): Promise<PromptList> {
  const query = { page: q.page, limit: q.limit, ...(q.search ? { search: q.search } : {}), ...(q.tag ? { tags: q.tag } : {}) };
  return (await api.get<PromptList>(paths.promptLibrary, { query, signal })).data;
}

export async function fetchPrompt(id: string, signal?: AbortSignal): Promise<PromptEntry> {
  return (await api.get<PromptEntry>(pathTo(paths.promptLibraryEntry, { id }), { signal })).data;
}

export async function createPrompt(body: PromptRequest): Promise<PromptEntry> {
  return (await api.post<PromptEntry>(paths.promptLibrary, body)).data;
}

export async function updatePrompt(id: string, body: PromptRequest): Promise<PromptEntry> {
  return (await api.put<PromptEntry>(pathTo(paths.promptLibraryEntry, { id }), body)).data;
}

export async function deletePrompt(id: string): Promise<void> {
  await api.delete(pathTo(paths.promptLibraryEntry, { id }));
}
