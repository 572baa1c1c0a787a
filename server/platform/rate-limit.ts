import type { Kysely } from 'kysely';
import type { RateLimitRule } from '../config';
import type { Database } from '../db/database';
import { forgiveRateLimitHit, hitRateLimit } from '../db/repositories/rate-limits';
import { RateLimitedError } from '../services/errors';

/**
 * Counts hits per key in fixed windows. Kept behind an interface so a shared store (Redis) can replace
 * the SQL one; nothing lives in process memory, so several instances count together.
 */
export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<{ count: number; resetAt: Date }>;
  /** Takes one hit back: an attempt that turned out fine (a right password) is no failure. */
  forgive(key: string): Promise<void>;
}

export function createSqlRateLimitStore(db: Kysely<Database>): RateLimitStore {
  return {
    async hit(key, windowMs) {
      const { count, windowStart } = await hitRateLimit(db, key, new Date(), windowMs);
      return { count, resetAt: new Date(Date.parse(windowStart) + windowMs) };
    },
    forgive: (key) => forgiveRateLimitHit(db, key),
  };
}

export interface RateLimitCheck {
  key: string;
  rule: RateLimitRule;
  /** The refusal's sentence, given "15 minutes"; default "Too many attempts. Please try again in 15 minutes." */
  refusal?: (wait: string) => string;
}

export function waitText(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

const tooMany = (what: string) => (wait: string) => `Too many ${what}. Please try again in ${wait}.`;

/**
 * Counts one hit on each check, in order. At the first one over its limit, the hits already counted are taken
 * back (a refused attempt is held only against the counter that refused it) and that check is answered.
 * Counting before the work (not after a failure) keeps a burst of parallel requests from slipping through.
 */
async function countHits(
  store: RateLimitStore,
  checks: readonly RateLimitCheck[],
): Promise<{ check: RateLimitCheck; retryAfterSeconds: number } | null> {
  for (const [index, check] of checks.entries()) {
    const { count, resetAt } = await store.hit(check.key, check.rule.windowMs);
    if (count <= check.rule.limit) continue;
    for (const counted of checks.slice(0, index)) await store.forgive(counted.key);
    return { check, retryAfterSeconds: Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000)) };
  }
  return null;
}

/** Counts one attempt on each check; past a limit throws RateLimitedError (429 with Retry-After). */
export async function enforceRateLimits(store: RateLimitStore, checks: readonly RateLimitCheck[]): Promise<void> {
  const refused = await countHits(store, checks);
  if (!refused) return;
  const sentence = refused.check.refusal ?? tooMany('attempts');
  throw new RateLimitedError(sentence(waitText(refused.retryAfterSeconds)), refused.retryAfterSeconds);
}

/** Counts one attempt on each check and says whether all were within their limits; never throws for a limit. */
export async function withinRateLimits(store: RateLimitStore, checks: readonly RateLimitCheck[]): Promise<boolean> {
  return (await countHits(store, checks)) === null;
}

/** Counts one attempt; past the limit throws RateLimitedError ("Too many {what}. ...", 429 with Retry-After). */
export async function enforceRateLimit(store: RateLimitStore, key: string, rule: RateLimitRule, what = 'attempts'): Promise<void> {
  await enforceRateLimits(store, [{ key, rule, refusal: tooMany(what) }]);
}
