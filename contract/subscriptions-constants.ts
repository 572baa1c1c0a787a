// Spec texts and limits of subscriptions and packages (Create New Subscription, the Subscriptions tab, Register New
// Client's subscription section: administration spec sections 2, 4, 5, 8 and 9), free of zod.

import type { OverlapKind } from '../shared/subscription-periods';

/** Subscription history page size when the request does not say (spec section 9). */
export const SUBSCRIPTION_PAGE_SIZE = 10;
/** Default subscription (spec sections 4 and 9): max users 1, fair use 1, one-year term. */
export const SUBSCRIPTION_DEFAULTS = { max_users: 1, fair_use: 1, term_years: 1 } as const;
export const SUBSCRIPTION_STATUSES = ['active', 'upcoming', 'expired'] as const;
export const SUBSCRIPTION_SORT_FIELDS = ['status', 'start_date', 'expire_date', 'created_at', 'max_users'] as const;
export type SubscriptionSortField = (typeof SUBSCRIPTION_SORT_FIELDS)[number];

export const MAX_USERS_LIMIT = 1_000_000;
export const FAIR_USE_LIMIT = 1_000_000;

export const PACKAGE_REQUIRED = 'Package selection is required';
export const PACKAGE_NOT_FOUND = 'The selected package does not exist';
export const MAX_USERS_INVALID = `Maximum users must be a whole number from 1 to ${MAX_USERS_LIMIT}`;
export const FAIR_USE_INVALID = `Fair use must be a whole number from 1 to ${FAIR_USE_LIMIT}`;
export const START_DATE_REQUIRED = 'Start date is required';
export const EXPIRY_DATE_REQUIRED = 'Expiry date is required';
export const DATE_INVALID = (label: string) => `${label} must be a date and time with its time zone, e.g. 2026-01-31T09:00:00Z`;
export const EXPIRY_NOT_AFTER_START = 'Expiry date must be after the start date';
export const SUBSCRIPTION_CLIENT_REQUIRED = 'Choose the client (client_id) of the subscription';
export const SORT_ORDER_MISMATCH = 'sort_order must give one order (asc or desc) per sort_by field';
export const SORT_FIELD_INVALID = `sort_by must be a comma-separated list of ${SUBSCRIPTION_SORT_FIELDS.join(', ')}`;
export const SORT_ORDER_INVALID = 'sort_order must be a comma-separated list of asc or desc';

/** How a period's dates read in the overlap messages: UTC, to the minute (datetime-local's precision). */
export function periodDate(iso: string): string {
  return `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The spec's three overlap messages (section 5), with the existing period's dates. */
export function overlapMessage(kind: OverlapKind, existing: { start_date: string; expire_date: string }): string {
  const period = `(${periodDate(existing.start_date)} - ${periodDate(existing.expire_date)})`;
  switch (kind) {
    case 'start':
      return `Start date overlaps with existing subscription period ${period}`;
    case 'end':
      return `End date overlaps with existing subscription period ${period}`;
    case 'cover':
      return `Subscription dates completely overlap with existing subscription period ${period}`;
  }
}

/** Spec section 8. */
export const PACKAGES_FETCH_FAILED = 'Failed to fetch packages';
export const PACKAGES_LOAD_FAILED = 'Failed to load packages. Please try again.';
export const SUBSCRIPTIONS_FETCH_FAILED = 'Failed to fetch client subscriptions';
export const ACTIVE_SUBSCRIPTIONS_FETCH_FAILED = 'Failed to fetch active subscriptions';
export const SUBSCRIPTION_CREATE_FAILED = 'Failed to create subscription';
export const SUBSCRIPTION_CREATED = 'Subscription created successfully';
export const NO_SUBSCRIPTION_HISTORY = 'No subscription history available';
