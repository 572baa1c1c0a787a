// Subscription periods as the administration spec reads them, shared by the server (which refuses an overlapping
// subscription and reports statuses) and the SPA (which warns as the user types and sorts the history).
//
// A period is closed at both ends: a subscription is in force from its start to its expiry, both included (the
// spec's "Active when start <= now <= expiry"). So a period that starts at the very instant another ends overlaps
// it (both would be in force at that instant); the next one starts after the expiry, however shortly.

export type SubscriptionStatus = 'active' | 'upcoming' | 'expired';

export interface Period {
  /** ISO-8601 timestamps; compared as instants. */
  start_date: string;
  expire_date: string;
}

/** Active when start <= at <= expiry, Upcoming when the start is still ahead, Expired otherwise. */
export function subscriptionStatusAt(period: Period, at: Date | string): SubscriptionStatus {
  const now = new Date(at).getTime();
  const start = Date.parse(period.start_date);
  if (now < start) return 'upcoming';
  return now <= Date.parse(period.expire_date) ? 'active' : 'expired';
}

/** Which of the spec's three overlap messages applies: the new start inside, the new end inside, or covering. */
export type OverlapKind = 'start' | 'end' | 'cover';

export interface Overlap<P extends Period> {
  kind: OverlapKind;
  existing: P;
}

/**
 * The first existing period (in the order given) the new one overlaps, and how; null when it overlaps none. A new
 * period inside an existing one is reported by its start, as the spec's first message.
 */
export function firstOverlap<P extends Period>(next: Period, existing: readonly P[]): Overlap<P> | null {
  const start = Date.parse(next.start_date);
  const end = Date.parse(next.expire_date);
  for (const period of existing) {
    const from = Date.parse(period.start_date);
    const to = Date.parse(period.expire_date);
    if (start >= from && start <= to) return { kind: 'start', existing: period };
    if (end >= from && end <= to) return { kind: 'end', existing: period };
    if (start <= from && end >= to) return { kind: 'cover', existing: period };
  }
  return null;
}
