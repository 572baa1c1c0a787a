import type { Kysely } from 'kysely';
import type { ClientQuota } from '../../../contract/clients-quota';
import { CLIENT_NOT_FOUND } from '../../../contract/clients-constants';
import type { Database } from '../../db/database';
import { findClientById } from '../../db/repositories/clients';
import { countActiveUsers } from '../../db/repositories/seats';
import { findActiveSubscription } from '../../db/repositories/subscriptions';
import { NotFoundError } from '../errors';
import type { FairUseMeter } from '../organisation/fair-use';
import type { Scope } from '../scope';
import { requireEveryOrganisation } from './client-scope';

/** GET /quotas/client/{id}: seats taken of max_users, and this month's fair use (organisation/fair-use.ts). */
export async function clientQuota(db: Kysely<Database>, fairUse: FairUseMeter, scope: Scope, clientId: string): Promise<ClientQuota> {
  requireEveryOrganisation(scope);
  if (!(await findClientById(db, clientId))) throw new NotFoundError(CLIENT_NOT_FOUND);
  const now = new Date();
  const subscription = await findActiveSubscription(db, clientId, now.toISOString());
  return {
    client_id: clientId,
    max_users: subscription?.max_users ?? null,
    active_users: await countActiveUsers(db, clientId),
    fair_use: subscription?.fair_use ?? null,
    fair_use_usage: await fairUse.of(clientId, now),
  };
}
