// The pure defaults and rules of a subscription's five fields (Package, Maximum Users, Fair Use, Start Date, Expiry
// Date), shared by Create New Subscription (machines/subscription-form.machine.ts) and Register New Client's
// 'Subscription Information' section. Dates are held as datetime-local text (local time, to the minute) and sent as
// ISO-8601 UTC.

import {
  EXPIRY_DATE_REQUIRED,
  EXPIRY_NOT_AFTER_START,
  FAIR_USE_INVALID,
  FAIR_USE_LIMIT,
  MAX_USERS_INVALID,
  MAX_USERS_LIMIT,
  overlapMessage,
  PACKAGE_REQUIRED,
  START_DATE_REQUIRED,
  SUBSCRIPTION_DEFAULTS,
} from '../contract/subscriptions-constants';
import { firstOverlap, type Period } from '../shared/subscription-periods';

/** What the five inputs hold, as typed. */
export interface SubscriptionValues {
  /** The chosen package's id; '' when none is chosen. */
  packageId: string;
  /** Whole-number text (the input's value). */
  maxUsers: string;
  fairUse: string;
  /** datetime-local text, local time: 'YYYY-MM-DDTHH:mm'; '' when cleared. */
  startDate: string;
  expiryDate: string;
}

export type SubscriptionField = keyof SubscriptionValues;

/** One message per field at fault, plus `overlap`: the spec's overlap sentence when the period meets an existing one. */
export type SubscriptionErrors = Partial<Record<SubscriptionField | 'overlap', string>>;

/** The body's subscription part (POST /subscriptions/ adds client_id; Register sends it as subscription_data). */
export interface SubscriptionPayload {
  package_id: string;
  max_users: number;
  fair_use: number;
  start_date: string;
  expire_date: string;
}

const MINUTE = 60_000;
const pad = (n: number) => String(n).padStart(2, '0');

/** A Date as datetime-local text in the browser's time zone, to the minute. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** datetime-local text (local time) as ISO-8601 UTC; null when empty or not a date. */
export function fromLocalInput(text: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text)) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** One year after the datetime-local text (same local wall time), or '' when it is not a date. */
export function oneYearAfter(text: string): string {
  if (!fromLocalInput(text)) return '';
  const date = new Date(text);
  date.setFullYear(date.getFullYear() + SUBSCRIPTION_DEFAULTS.term_years);
  return toLocalInput(date);
}

/**
 * The first minute a new subscription may start: the minute after the latest existing expiry (periods are closed,
 * so it must start after it), but never before now (the current minute). `existing` may be empty.
 */
export function earliestStart(existing: readonly Period[], now: Date): Date {
  const currentMinute = Math.floor(now.getTime() / MINUTE) * MINUTE;
  const latestEnd = existing.reduce((latest, p) => Math.max(latest, Date.parse(p.expire_date)), Number.NEGATIVE_INFINITY);
  const afterLatest = Number.isFinite(latestEnd) ? Math.floor(latestEnd / MINUTE) * MINUTE + MINUTE : currentMinute;
  return new Date(Math.max(currentMinute, afterLatest));
}

/**
 * The values after the person changed `field`: a new start moves the expiry a year on (the default term) until the
 * expiry was changed by hand (`expiryTouched`).
 */
export function withFieldChange(values: SubscriptionValues, field: SubscriptionField, value: string, expiryTouched: boolean): SubscriptionValues {
  const next = { ...values, [field]: value };
  if (field === 'startDate' && !expiryTouched && oneYearAfter(value)) next.expiryDate = oneYearAfter(value);
  return next;
}

/** The defaults (spec sections 4 and 9): no package, max users 1, fair use 1, start per earliestStart, a one-year term. */
export function defaultSubscriptionValues(existing: readonly Period[], now: Date): SubscriptionValues {
  const start = toLocalInput(earliestStart(existing, now));
  return {
    packageId: '',
    maxUsers: String(SUBSCRIPTION_DEFAULTS.max_users),
    fairUse: String(SUBSCRIPTION_DEFAULTS.fair_use),
    startDate: start,
    expiryDate: oneYearAfter(start),
  };
}

const wholeNumber = (text: string, max: number) => /^\d+$/.test(text.trim()) && Number(text) >= 1 && Number(text) <= max;

/**
 * The overlap sentence (contract overlapMessage) when the typed period meets one of `existing`, else undefined.
 * Quiet while either date is missing or the expiry is not after the start (those have their own messages).
 */
export function overlapError(values: SubscriptionValues, existing: readonly Period[]): string | undefined {
  const start_date = fromLocalInput(values.startDate);
  const expire_date = fromLocalInput(values.expiryDate);
  if (!start_date || !expire_date || expire_date <= start_date) return undefined;
  const overlap = firstOverlap({ start_date, expire_date }, existing);
  return overlap ? overlapMessage(overlap.kind, overlap.existing) : undefined;
}

/** Every rule at once: the messages of the fields at fault (an empty object when the values can be sent). */
export function validateSubscription(values: SubscriptionValues, existing: readonly Period[]): SubscriptionErrors {
  const errors: SubscriptionErrors = {};
  if (!values.packageId) errors.packageId = PACKAGE_REQUIRED;
  if (!wholeNumber(values.maxUsers, MAX_USERS_LIMIT)) errors.maxUsers = MAX_USERS_INVALID;
  if (!wholeNumber(values.fairUse, FAIR_USE_LIMIT)) errors.fairUse = FAIR_USE_INVALID;
  const start = fromLocalInput(values.startDate);
  const expiry = fromLocalInput(values.expiryDate);
  if (!start) errors.startDate = START_DATE_REQUIRED;
  if (!expiry) errors.expiryDate = EXPIRY_DATE_REQUIRED;
  else if (start && expiry <= start) errors.expiryDate = EXPIRY_NOT_AFTER_START;
  const overlap = overlapError(values, existing);
  if (overlap) errors.overlap = overlap;
  return errors;
}

/** The values as the API takes them (call after validateSubscription found nothing). */
export function toSubscriptionPayload(values: SubscriptionValues): SubscriptionPayload {
  return {
    package_id: values.packageId,
    max_users: Number(values.maxUsers),
    fair_use: Number(values.fairUse),
    start_date: fromLocalInput(values.startDate) ?? '',
    expire_date: fromLocalInput(values.expiryDate) ?? '',
  };
}

/** The server's field names (its `fields` on a 400) mapped to the inputs'. */
export const SERVER_FIELDS: Record<string, SubscriptionField> = {
  package_id: 'packageId',
  max_users: 'maxUsers',
  fair_use: 'fairUse',
  start_date: 'startDate',
  expire_date: 'expiryDate',
};
