import { sql, type Kysely } from 'kysely';
import type { Database } from '../database';
import { preparedQuery, type Slots } from '../prepared-query';

/**
 * Counts one hit for `key` in a fixed window, atomically (a single upsert, so concurrent
 * instances sharing the database count correctly). A window older than `windowMs` restarts at 1.
 */
export async function hitRateLimit(
  db: Kysely<Database>,
  key: string,
  now: Date,
  windowMs: number,
): Promise<{ count: number; windowStart: string }> {
  const nowIso = now.toISOString();
  const expiredBefore = new Date(now.getTime() - windowMs).toISOString();
  const row = await hitQuery.executeTakeFirst(db, key, nowIso, expiredBefore);
  if (!row) throw new Error('the rate limit upsert returned no row');
  return { count: Number(row.count), windowStart: row.window_start };
}

// On the path of every send and sign-in: compiled once (see prepared-query.ts).
const hitQuery = preparedQuery((db, slot: Slots<[key: string, nowIso: string, expiredBefore: string]>) =>
  db
    .insertInto('rate_limits')
    .values({ key: slot(0), count: 1, window_start: slot(1) })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_limits.window_start <= ${slot(2)} then 1 else rate_limits.count + 1 end`,
        window_start: sql<string>`case when rate_limits.window_start <= ${slot(2)} then ${slot(1)} else rate_limits.window_start end`,
      }),
    )
    .returning(['count', 'window_start']),
);

/** Housekeeping: rows whose window ended before `before` carry no information any more. */
export async function deleteExpiredRateLimits(db: Kysely<Database>, before: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_start', '<', before).execute();
}

/** Takes one hit back from `key`'s current window (never below zero). */
export async function forgiveRateLimitHit(db: Kysely<Database>, key: string): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ count: sql<number>`count - 1` })
    .where('key', '=', key)
    .where('count', '>', 0)
    .execute();
}
