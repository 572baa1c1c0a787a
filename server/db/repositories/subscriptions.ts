import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, SubscriptionsTable } from '../database';
import { isoNow } from '../timestamps';

export type SubscriptionRecord = Selectable<SubscriptionsTable>;
export type NewSubscription = Omit<SubscriptionRecord, 'id' | 'created_at'>;

export async function insertSubscription(db: Kysely<Database>, sub: NewSubscription): Promise<SubscriptionRecord> {
  const row: SubscriptionRecord = { id: randomUUID(), ...sub, created_at: isoNow() };
  await db.insertInto('subscriptions').values(row).execute();
  return row;
}

/** The subscription in force at `at` (start_date <= at <= expire_date), latest start first, with its package type. */
export async function findActiveSubscription(
  db: Kysely<Database>,
  clientId: string,
  at: string,
): Promise<(SubscriptionRecord & { package_type: string }) | undefined> {
  return db
    .selectFrom('subscriptions')
    .innerJoin('packages', 'packages.id', 'subscriptions.package_id')
    .selectAll('subscriptions')
    .select('packages.type as package_type')
    .where('subscriptions.client_id', '=', clientId)
    .where('subscriptions.start_date', '<=', at)
    .where('subscriptions.expire_date', '>=', at)
    .orderBy('subscriptions.start_date', 'desc')
    .limit(1)
    .executeTakeFirst();
}
