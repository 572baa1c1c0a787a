import { describe, expect, it } from 'vitest';
import { messageTimeLabel, messageTimeTitle } from '../../src/lib/message-time-label';

describe('messageTimeLabel (time shown beside a message)', () => {
  const now = new Date(2026, 10, 28, 9, 0);
  it('says Today or Yesterday with the time, else the whole date', () => {
    expect(messageTimeLabel(new Date(2026, 10, 28, 0, 5), now)).toBe('Today 12:05 AM');
    expect(messageTimeLabel(new Date(2026, 10, 27, 14, 3), now)).toBe('Yesterday 02:03 PM');
    expect(messageTimeLabel(new Date(2026, 10, 26, 23, 59), now)).toBe('26/11/2026 11:59 PM');
  });
  it('crosses a month and a year boundary for Yesterday', () => {
    expect(messageTimeLabel(new Date(2026, 11, 31, 10, 0), new Date(2027, 0, 1, 8, 0))).toBe('Yesterday 10:00 AM');
    expect(messageTimeLabel(new Date(2025, 10, 28, 10, 0), now)).toBe('28/11/2025 10:00 AM');
  });
  it('reads ISO strings, and shows nothing for a bad value', () => {
    expect(messageTimeLabel(new Date(2026, 10, 28, 13, 52).toISOString(), now)).toBe('Today 01:52 PM');
    expect(messageTimeLabel('nope', now)).toBe('');
  });
  it('titles the time with the weekday and the full date', () => {
    expect(messageTimeTitle(new Date(2026, 10, 28, 14, 3))).toBe('Saturday, 28/11/2026 02:03 PM');
    expect(messageTimeTitle('nope')).toBe('');
  });
});
