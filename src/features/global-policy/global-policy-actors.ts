import { fromPromise } from 'xstate';
import type { fetchGlobalPolicy, updateGlobalPolicy } from '../../api/global-policy';
import { withServerDetail } from '../../lib/load-failure';

/** The API functions the Global Policy page calls (src/api/global-policy.ts; tests pass fakes). */
export interface GlobalPolicyApi {
  fetchGlobalPolicy: typeof fetchGlobalPolicy;
  updateGlobalPolicy: typeof updateGlobalPolicy;
}

/** The policy editor's side effects: `policyEditorMachine.provide({ actors: definePolicyEditorActors({ api }) })`. */
export function definePolicyEditorActors({ api }: { api: GlobalPolicyApi }) {
  return {
    loadPolicy: fromPromise<string | null, void>(({ signal }) => api.fetchGlobalPolicy(signal)),
    // The server's sentence (the word limit) when it gave one.
    savePolicy: fromPromise<string | null, { policy_prompt: string | null }>(({ input }) =>
      withServerDetail(api.updateGlobalPolicy(input.policy_prompt)),
    ),
  };
}
