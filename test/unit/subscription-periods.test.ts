import { describe, expect, it } from 'vitest';
import { overlapMessage, periodDate } from '../../contract/subscriptions-constants';
import { firstOverlap, subscriptionStatusAt } from '../../shared/subscription-periods';

const period = { start_date: '2026-03-01T00:00:00.000Z', expire_date: '2026-03-31T00:00:00.000Z' };
const ms = (iso: string, delta: number) => new Date(Date.parse(iso) + delta).toISOString();

describe('subscription status, derived from the dates', () => {
  it('is upcoming until the start, active from the start to the expiry (both included), expired after', () => {
    expect(subscriptionStatusAt(period, ms(period.start_date, -1))).toBe('upcoming');
    expect(subscriptionStatusAt(period, period.start_date)).toBe('active');
    expect(subscriptionStatusAt(period, '2026-03-15T12:00:00.000Z')).toBe('active');
    expect(subscriptionStatusAt(period, period.expire_date)).toBe('active');
    expect(subscriptionStatusAt(period, ms(period.expire_date, 1))).toBe('expired');
    expect(subscriptionStatusAt(period, new Date(ms(period.expire_date, 1)))).toBe('expired');
  });
});

describe('overlap of a new period with existing ones', () => {
  const at = (start: string, end: string) => ({ start_date: start, expire_date: end });

  it('touching ends overlap (both ends are in force); a millisecond apart does not', () => {
    expect(firstOverlap(at(period.expire_date, '2026-04-30T00:00:00.000Z'), [period])?.kind).toBe('start');
    expect(firstOverlap(at('2026-02-01T00:00:00.000Z', period.start_date), [period])?.kind).toBe('end');
    expect(firstOverlap(at(ms(period.expire_date, 1), '2026-04-30T00:00:00.000Z'), [period])).toBeNull();
    expect(firstOverlap(at('2026-02-01T00:00:00.000Z', ms(period.start_date, -1)), [period])).toBeNull();
  });

  it('names the start when it falls inside (also for a period wholly inside), the end when only it does, and a covering period', () => {
    expect(firstOverlap(at('2026-03-10T00:00:00.000Z', '2026-04-10T00:00:00.000Z'), [period])?.kind).toBe('start');
    expect(firstOverlap(at('2026-03-10T00:00:00.000Z', '2026-03-20T00:00:00.000Z'), [period])?.kind).toBe('start');
    expect(firstOverlap(at('2026-02-10T00:00:00.000Z', '2026-03-10T00:00:00.000Z'), [period])?.kind).toBe('end');
    expect(firstOverlap(at('2026-02-10T00:00:00.000Z', '2026-04-10T00:00:00.000Z'), [period])?.kind).toBe('cover');
    expect(firstOverlap(at(period.start_date, period.expire_date), [period])?.kind).toBe('start');
  });

  it('reports the first overlapping period in the order given, whatever comes after', () => {
    const later = at('2026-05-01T00:00:00.000Z', '2026-05-31T00:00:00.000Z');
    const found = firstOverlap(at('2026-02-01T00:00:00.000Z', '2026-06-30T00:00:00.000Z'), [period, later]);
    expect(found).toEqual({ kind: 'cover', existing: period });
    expect(firstOverlap(at('2026-05-10T00:00:00.000Z', '2026-05-20T00:00:00.000Z'), [period, later])?.existing).toBe(later);
  });

  it("words the spec's three messages with the existing period's dates (UTC, to the minute)", () => {
    expect(periodDate('2026-03-01T09:05:59.999Z')).toBe('2026-03-01 09:05 UTC');
    const dates = '(2026-03-01 00:00 UTC - 2026-03-31 00:00 UTC)';
    expect(overlapMessage('start', period)).toBe(`Start date overlaps with existing subscription period ${dates}`);
    expect(overlapMessage('end', period)).toBe(`End date overlaps with existing subscription period ${dates}`);
    expect(overlapMessage('cover', period)).toBe(`Subscription dates completely overlap with existing subscription period ${dates}`);
  });
});
