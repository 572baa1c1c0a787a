import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { Database, SubscriptionsTable } from '../database';
import { isoNow } from '../timestamps';

export type SubscriptionRecord = Selectable<SubscriptionsTable>;
export type NewSubscription = Omit<SubscriptionRecord, 'id' | 'created_at'>;
/** A subscription with its package's type and features (the features as stored: a JSON list). */
export type SubscriptionWithPackage = SubscriptionRecord & { package_type: string; package_features: string };

export async function insertSubscription(db: Kysely<Database>, sub: NewSubscription): Promise<SubscriptionRecord> {
  const row: SubscriptionRecord = { id: randomUUID(), ...sub, created_at: isoNow() };
  await db.insertInto('subscriptions').values(row).execute();
  return row;
}

function withPackage(db: Kysely<Database>) {
  return db
    .selectFrom('subscriptions')
    .innerJoin('packages', 'packages.id', 'subscriptions.package_id')
    .selectAll('subscriptions')
    .select(['packages.type as package_type', 'packages.features as package_features']);
}

/** The subscription in force at `at` (start_date <= at <= expire_date), latest start first, with its package. */
export async function findActiveSubscription(
  db: Kysely<Database>,
  clientId: string,
  at: string,
): Promise<SubscriptionWithPackage | undefined> {
  return withPackage(db)
    .where('subscriptions.client_id', '=', clientId)
    .where('subscriptions.start_date', '<=', at)
    .where('subscriptions.expire_date', '>=', at)
    .orderBy('subscriptions.start_date', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The subscription in force at `at` of each of these clients (see findActiveSubscription), by client id. */
export async function findActiveSubscriptions(
  db: Kysely<Database>,
  clientIds: readonly string[],
  at: string,
): Promise<Map<string, SubscriptionWithPackage>> {
  const found = new Map<string, SubscriptionWithPackage>();
  if (clientIds.length === 0) return found;
  const rows = await withPackage(db)
    .where('subscriptions.client_id', 'in', clientIds)
    .where('subscriptions.start_date', '<=', at)
    .where('subscriptions.expire_date', '>=', at)
    .orderBy('subscriptions.start_date', 'desc')
    .execute();
  for (const row of rows) if (!found.has(row.client_id)) found.set(row.client_id, row);
  return found;
}

/**
 * Every subscription of the client whose period [start_date, expire_date] (both ends included) meets [start, end],
 * earliest first: all of them, whatever their number. `db` should be the transaction that then adds one.
 */
export async function findOverlappingSubscriptions(
  db: Kysely<Database>,
  clientId: string,
  start: string,
  end: string,
): Promise<SubscriptionRecord[]> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('start_date', '<=', end)
    .where('expire_date', '>=', start)
    .orderBy('start_date')
    .orderBy('id')
    .execute();
}

export type SubscriptionStatusFilter = 'active' | 'upcoming' | 'expired';
export type SubscriptionSortColumn = 'status' | 'start_date' | 'expire_date' | 'created_at' | 'max_users';

export interface SubscriptionListFilter {
  clientId: string;
  /** The instant statuses are derived at. */
  at: string;
  status?: SubscriptionStatusFilter;
  sort: readonly { by: SubscriptionSortColumn; order: 'asc' | 'desc' }[];
  limit: number;
  offset: number;
}

type SubscriptionsEb = ExpressionBuilder<Database, 'subscriptions'>;

/** active 3, upcoming 2, expired 1: `status desc` lists them as the Subscriptions tab does. */
const statusRank = (at: string) =>
  sql<number>`case when subscriptions.start_date > ${at} then 2 when subscriptions.expire_date >= ${at} then 3 else 1 end`;

function statusCondition(eb: SubscriptionsEb, status: SubscriptionStatusFilter, at: string) {
  if (status === 'upcoming') return eb('subscriptions.start_date', '>', at);
  if (status === 'expired') return eb('subscriptions.expire_date', '<', at);
  return eb.and([eb('subscriptions.start_date', '<=', at), eb('subscriptions.expire_date', '>=', at)]);
}

/** One page of a client's subscriptions with their packages, sorted as asked (then by id), and the number in all. */
export async function listSubscriptions(
  db: Kysely<Database>,
  filter: SubscriptionListFilter,
): Promise<{ rows: SubscriptionWithPackage[]; total: number }> {
  const { status, at } = filter;
  let count = db.selectFrom('subscriptions').where('subscriptions.client_id', '=', filter.clientId);
  if (status) count = count.where((eb) => statusCondition(eb, status, at));
  const { n } = await count.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();

  let query = withPackage(db).where('subscriptions.client_id', '=', filter.clientId);
  if (status) query = query.where((eb) => statusCondition(eb, status, at));
  for (const { by, order } of filter.sort) {
    query = by === 'status' ? query.orderBy(statusRank(at), order) : query.orderBy(`subscriptions.${by}`, order);
  }
  const rows = await query.orderBy('subscriptions.id').limit(filter.limit).offset(filter.offset).execute();
  return { rows, total: Number(n) };
}
