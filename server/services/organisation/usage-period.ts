import type { TimeRange } from '../../db/repositories/usage-reports';

// Months are UTC calendar months, turned into ISO timestamp ranges on usage_logs.created_at (ISO text, see
// server/db/timestamps.ts), so the database compares text it can find in an index.

/** The first instant of a UTC month; `month` from 0 and may run past 11 or below 0 (Date.UTC carries it). */
export function monthStart(year: number, month: number): string {
  return new Date(Date.UTC(year, month, 1)).toISOString();
}

/** 'YYYY-MM' of a UTC month (month from 0, carried like monthStart). */
export function monthKey(year: number, month: number): string {
  return monthStart(year, month).slice(0, 7);
}

/**
 * The ranges of the chosen months (1 to 12) of a year; all twelve when none are chosen. Consecutive months make
 * one range, so the usual "whole year" or "one month" filter is a single index range scan.
 */
export function periodRanges(year: number, months?: readonly number[]): TimeRange[] {
  const chosen = months?.length ? [...new Set(months)].sort((a, b) => a - b) : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const ranges: TimeRange[] = [];
  let runStart = chosen[0];
  chosen.forEach((month, i) => {
    const next = chosen[i + 1];
    if (next === month + 1) return;
    ranges.push({ from: monthStart(year, runStart - 1), to: monthStart(year, month) });
    runStart = next;
  });
  return ranges;
}
