import type { Kysely } from 'kysely';
import { FAIR_USE_EXCEEDED, FAIR_USE_EXCEEDED_CODE } from '../../../contract/chat-constants';
import type { FairUse } from '../../../contract/fair-use';
import type { Database } from '../../db/database';
import { findActiveSubscription } from '../../db/repositories/subscriptions';
import { organisationTokensBetween } from '../../db/repositories/usage-logs';
import { RateLimitedError } from '../errors';
import { monthStart } from './usage-period';

/**
 * The spec gives fair_use a whole number >= 1 (default 1) and no meaning; here it is millions of tokens per seat per
 * UTC calendar month, so the default subscription (1 seat, fair use 1) can ask about a thousand questions a month.
 */
export const FAIR_USE_TOKENS_PER_UNIT = 1_000_000;

/** A question refused because the organisation's fair use of the month is spent: 429 until the next month. */
export class FairUseExceededError extends RateLimitedError {
  override readonly code = FAIR_USE_EXCEEDED_CODE;
}

function monthOf(now: Date) {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return { from: monthStart(year, month), to: monthStart(year, month + 1) };
}

/** The organisation's fair use this month, or null when it has no subscription in force (nothing to measure against). */
export async function fairUseOf(db: Kysely<Database>, clientId: string, now = new Date()): Promise<FairUse | null> {
  const subscription = await findActiveSubscription(db, clientId, now.toISOString());
  if (!subscription) return null;
  const { from, to } = monthOf(now);
  const used = await organisationTokensBetween(db, clientId, from, to);
  const allowance = subscription.fair_use * subscription.max_users * FAIR_USE_TOKENS_PER_UNIT;
  return { used_tokens: used, allowance_tokens: allowance, percent: Math.floor((used * 1000) / allowance) / 10 };
}

/**
 * Refuses a new question (a send or an edit) once the organisation has used 100% of the month's allowance. A
 * question under way is never cut off, so the month may end a little over. People of no organisation (the
 * superuser) and organisations without a subscription in force (refused at sign-in anyway) are not measured here.
 */
export async function requireFairUse(db: Kysely<Database>, clientId: string | null, now = new Date()): Promise<void> {
  if (!clientId) return;
  const use = await fairUseOf(db, clientId, now);
  if (use && use.used_tokens >= use.allowance_tokens) {
    const nextMonth = Date.parse(monthOf(now).to);
    throw new FairUseExceededError(FAIR_USE_EXCEEDED, Math.max(1, Math.ceil((nextMonth - now.getTime()) / 1000)));
  }
}
