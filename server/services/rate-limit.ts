import type { Kysely } from 'kysely';
import type { RateLimitRule } from '../config';
import type { Database } from '../db/database';
import { hitRateLimit } from '../db/repositories/rate-limits';
import { RateLimitedError } from './errors';

/**
 * Counts hits per key in fixed windows. Kept behind an interface so a shared store (Redis) can replace
 * the SQL one; nothing lives in process memory, so several instances count together.
 */
export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<{ count: number; resetAt: Date }>;
}

export function createSqlRateLimitStore(db: Kysely<Database>): RateLimitStore {
  return {
    async hit(key, windowMs) {
      const { count, windowStart } = await hitRateLimit(db, key, new Date(), windowMs);
      return { count, resetAt: new Date(Date.parse(windowStart) + windowMs) };
    },
  };
}

/** Counts one attempt; past the limit throws RateLimitedError ("Too many {what}. ...", 429 with Retry-After). */
export async function enforceRateLimit(store: RateLimitStore, key: string, rule: RateLimitRule, what = 'attempts'): Promise<void> {
  const { count, resetAt } = await store.hit(key, rule.windowMs);
  if (count <= rule.limit) return;
  const seconds = Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  throw new RateLimitedError(`Too many ${what}. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, seconds);
}
