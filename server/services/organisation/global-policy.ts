import type { Kysely } from 'kysely';
import type { GlobalPolicy } from '../../../contract/global-policy';
import type { Database } from '../../db/database';
import { findPolicyPrompt, savePolicyPrompt } from '../../db/repositories/global-policy';
import { organisationIn, type Scope } from '../scope';

export async function readGlobalPolicy(db: Kysely<Database>, scope: Scope): Promise<GlobalPolicy> {
  return { policy_prompt: await findPolicyPrompt(db, organisationIn(scope)) };
}

/** Stores the policy (already trimmed and within the limit; null removes it) and answers what is stored. */
export async function updateGlobalPolicy(db: Kysely<Database>, scope: Scope, editorId: string, policyPrompt: string | null): Promise<GlobalPolicy> {
  await savePolicyPrompt(db, organisationIn(scope), policyPrompt, editorId);
  return { policy_prompt: policyPrompt };
}
