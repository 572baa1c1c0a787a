import type { Kysely } from 'kysely';
import type { GlobalPolicy } from '../../../contract/global-policy';
import type { Database } from '../../db/database';
import { findPolicyPrompt, savePolicyPrompt } from '../../db/repositories/global-policy';
import type { UserRecord } from '../../db/repositories/users';
import { organisationOf } from './own-organisation';

type Admin = Pick<UserRecord, 'id' | 'client_id'>;

export async function readGlobalPolicy(db: Kysely<Database>, user: Admin): Promise<GlobalPolicy> {
  return { policy_prompt: await findPolicyPrompt(db, organisationOf(user)) };
}

/** Stores the policy (already trimmed and within the limit; null removes it) and answers what is stored. */
export async function updateGlobalPolicy(db: Kysely<Database>, user: Admin, policyPrompt: string | null): Promise<GlobalPolicy> {
  await savePolicyPrompt(db, organisationOf(user), policyPrompt, user.id);
  return { policy_prompt: policyPrompt };
}
