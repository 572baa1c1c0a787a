import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from '../../src/lib/format-date';

describe('formatDateTime (dd/mm/yyyy hh:mm AM/PM)', () => {
  it('puts the day first and pads to two digits', () => {
    expect(formatDate(new Date(2026, 0, 5, 9, 7))).toBe('05/01/2026');
    expect(formatDateTime(new Date(2026, 0, 5, 9, 7))).toBe('05/01/2026 09:07 AM');
  });
  it('uses a 12-hour clock: midnight is 12 AM, noon is 12 PM', () => {
    expect(formatDateTime(new Date(2026, 10, 23, 0, 0))).toBe('23/11/2026 12:00 AM');
    expect(formatDateTime(new Date(2026, 10, 23, 12, 30))).toBe('23/11/2026 12:30 PM');
    expect(formatDateTime(new Date(2026, 10, 23, 23, 59))).toBe('23/11/2026 11:59 PM');
  });
  it('reads ISO strings from the API in the local time zone, and shows nothing for a bad value', () => {
    const iso = new Date(2026, 10, 23, 13, 52).toISOString();
    expect(formatDateTime(iso)).toBe('23/11/2026 01:52 PM');
    expect(formatDateTime('not a date')).toBe('');
  });
});
