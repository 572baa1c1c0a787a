import type { Kysely } from 'kysely';
import { CLIENT_NOT_FOUND } from '../../../contract/clients-constants';
import type { PackageView, Subscription, SubscriptionData, SubscriptionList } from '../../../contract/subscriptions';
import {
  EXPIRY_NOT_AFTER_START,
  PACKAGE_NOT_FOUND,
  SORT_ORDER_MISMATCH,
  overlapMessage,
  type SubscriptionSortField,
} from '../../../contract/subscriptions-constants';
import { firstOverlap } from '../../../shared/subscription-periods';
import type { Database } from '../../db/database';
import { findClientById } from '../../db/repositories/clients';
import { findPackageById, listPackages, type PackageRecord } from '../../db/repositories/packages';
import { lockOrganisation } from '../../db/repositories/seats';
import {
  findOverlappingSubscriptions,
  insertSubscription,
  listSubscriptions,
  type SubscriptionStatusFilter,
} from '../../db/repositories/subscriptions';
import { isoNow } from '../../db/timestamps';
import { inTransaction } from '../../db/transaction';
import { InvalidError, NotFoundError } from '../errors';
import { pageWindow, totalPages } from '../paging';
import type { Scope } from '../scope';
import { requireEveryOrganisation } from './client-scope';
import { toSubscriptionView } from './client-view';

/** GET /packages/: every package with its features, by type. */
export async function listPackagesFor(db: Kysely<Database>, scope: Scope): Promise<PackageView[]> {
  requireEveryOrganisation(scope);
  return (await listPackages(db)).map(({ id, type, features }) => ({ id, type, features }));
}

export interface SubscriptionListOptions {
  clientId: string;
  page: number;
  limit: number;
  status?: SubscriptionStatusFilter;
  sortBy?: SubscriptionSortField[];
  sortOrder?: ('asc' | 'desc')[];
}

/** What the Subscriptions tab asks for: `status,start_date` descending (active, upcoming, expired; newest first). */
const DEFAULT_SORT: SubscriptionSortField[] = ['status', 'start_date'];

/** GET /subscriptions/: one client's subscriptions (404 when there is no such client), statuses derived now. */
export async function listClientSubscriptions(db: Kysely<Database>, scope: Scope, opts: SubscriptionListOptions): Promise<SubscriptionList> {
  requireEveryOrganisation(scope);
  if (!(await findClientById(db, opts.clientId))) throw new NotFoundError(CLIENT_NOT_FOUND);
  const sortBy = opts.sortBy ?? DEFAULT_SORT;
  if (opts.sortOrder && opts.sortOrder.length !== sortBy.length) {
    throw new InvalidError(SORT_ORDER_MISMATCH, { sort_order: SORT_ORDER_MISMATCH });
  }
  const at = isoNow();
  const { rows, total } = await listSubscriptions(db, {
    clientId: opts.clientId,
    at,
    status: opts.status,
    sort: sortBy.map((by, i) => ({ by, order: opts.sortOrder?.[i] ?? 'desc' })),
    ...pageWindow(opts.page, opts.limit),
  });
  return {
    subscriptions: rows.map((row) => toSubscriptionView(row, at)),
    page: opts.page,
    limit: opts.limit,
    total,
    total_pages: totalPages(total, opts.limit),
  };
}

/**
 * Checks a new subscription of the client and adds it; `db` must be the caller's transaction. The client's row is
 * locked first, so two overlapping subscriptions sent at once cannot both pass the check. Refuses (400, on the field
 * at fault) an unknown package, an expiry not after the start, and a period meeting any existing one of the client
 * (all of them, however many: touching ends overlap, see shared/subscription-periods.ts).
 */
export async function addSubscription(db: Kysely<Database>, clientId: string, data: SubscriptionData): Promise<Subscription> {
  const pkg = await findPackageById(db, data.package_id);
  if (!pkg) throw new InvalidError(PACKAGE_NOT_FOUND, { package_id: PACKAGE_NOT_FOUND });
  if (data.expire_date <= data.start_date) throw new InvalidError(EXPIRY_NOT_AFTER_START, { expire_date: EXPIRY_NOT_AFTER_START });
  await lockOrganisation(db, clientId);
  const overlap = firstOverlap(data, await findOverlappingSubscriptions(db, clientId, data.start_date, data.expire_date));
  if (overlap) {
    const message = overlapMessage(overlap.kind, overlap.existing);
    const field = overlap.kind === 'end' ? 'expire_date' : 'start_date';
    throw new InvalidError(message, { [field]: message }, 'subscription_overlap');
  }
  const row = await insertSubscription(db, {
    client_id: clientId,
    package_id: pkg.id,
    max_users: data.max_users,
    fair_use: data.fair_use,
    start_date: data.start_date,
    expire_date: data.expire_date,
  });
  return toSubscriptionView(withPackage(row, pkg), isoNow());
}

/** POST /subscriptions/: a new subscription of an existing client (404 when there is none). */
export async function createSubscription(
  db: Kysely<Database>,
  scope: Scope,
  clientId: string,
  data: SubscriptionData,
): Promise<Subscription> {
  requireEveryOrganisation(scope);
  return inTransaction(db, async (trx) => {
    if (!(await findClientById(trx, clientId))) throw new NotFoundError(CLIENT_NOT_FOUND);
    return addSubscription(trx, clientId, data);
  });
}

function withPackage<T extends object>(row: T, pkg: PackageRecord) {
  return { ...row, package_type: pkg.type, package_features: JSON.stringify(pkg.features) };
}
