import { paths } from '../../contract/api-paths';
import type { GlobalPolicy } from '../../contract/global-policy';
import { api } from './http';

/** The organisation's policy prompt (null: none). */
export async function fetchGlobalPolicy(signal?: AbortSignal): Promise<string | null> {
  return (await api.get<GlobalPolicy>(paths.globalPolicy, { signal })).data.policy_prompt;
}

/** Stores the policy and answers what was stored (trimmed; null for none). */
export async function updateGlobalPolicy(policyPrompt: string | null): Promise<string | null> {
  return (await api.put<GlobalPolicy>(paths.globalPolicy, { policy_prompt: policyPrompt })).data.policy_prompt;
}
