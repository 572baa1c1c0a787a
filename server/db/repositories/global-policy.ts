import type { Kysely } from 'kysely';
import type { Database } from '../database';
import { preparedQuery, type Slots } from '../prepared-query';
import { isoNow } from '../timestamps';

/** The organisation's policy prompt, or null when it has none. One lookup by primary key. */
export async function findPolicyPrompt(db: Kysely<Database>, clientId: string): Promise<string | null> {
  const row = await policyPrompt.executeTakeFirst(db, clientId);
  return row?.policy_prompt ?? null;
}

// Part of every reply's system prompt, read before the model is asked: compiled once (see prepared-query.ts).
const policyPrompt = preparedQuery((db, slot: Slots<[clientId: string]>) =>
  db.selectFrom('global_policies').select('policy_prompt').where('client_id', '=', slot(0)),
);

/** Stores the policy (null removes it). */
export async function savePolicyPrompt(db: Kysely<Database>, clientId: string, policyPrompt: string | null, userId: string): Promise<void> {
  if (policyPrompt === null) {
    await db.deleteFrom('global_policies').where('client_id', '=', clientId).execute();
    return;
  }
  const now = isoNow();
  await db
    .insertInto('global_policies')
    .values({ client_id: clientId, policy_prompt: policyPrompt, updated_by: userId, updated_at: now })
    .onConflict((oc) => oc.column('client_id').doUpdateSet({ policy_prompt: policyPrompt, updated_by: userId, updated_at: now }))
    .execute();
}
