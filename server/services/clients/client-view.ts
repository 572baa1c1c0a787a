import type { Client } from '../../../contract/clients';
import type { Subscription } from '../../../contract/subscriptions';
import { subscriptionStatusAt } from '../../../shared/subscription-periods';
import type { ClientRecord } from '../../db/repositories/clients';
import { parseFeatures } from '../../db/repositories/packages';
import type { SubscriptionWithPackage } from '../../db/repositories/subscriptions';
import { effectiveAuthType } from '../organisation/effective-auth-type';

/** A subscription as the contract gives it: its status derived from its dates at `at`. */
export function toSubscriptionView(row: SubscriptionWithPackage, at: string): Subscription {
  return {
    id: row.id,
    client_id: row.client_id,
    package_id: row.package_id,
    package_name: row.package_type,
    package: { type: row.package_type, features: parseFeatures(row.package_features), start_date: row.start_date, end_date: row.expire_date },
    max_users: row.max_users,
    fair_use: row.fair_use,
    start_date: row.start_date,
    expire_date: row.expire_date,
    status: subscriptionStatusAt(row, at),
    created_at: row.created_at,
  };
}

/** A client as the contract gives it, with the subscription in force at `at` (or null). */
export function toClientView(row: ClientRecord, current: SubscriptionWithPackage | undefined, at: string): Client {
  return {
    id: row.id,
    client_name: row.client_name,
    contact_info: { email: row.email, phone: row.phone },
    origin: row.origin,
    status: row.status,
    auth_type: effectiveAuthType(row.auth_type, current?.package_type ?? null),
    client_type: row.client_type,
    created_at: row.created_at,
    updated_at: row.updated_at,
    subscription: current ? toSubscriptionView(current, at) : null,
  };
}
