import { describe, expect, it } from 'vitest';
import { groupConversations, groupOf } from '../../src/lib/conversation-groups';

const now = new Date(2026, 10, 23, 9, 30); // 23 Nov 2026, 09:30 local
const at = (d: number, h = 12) => new Date(2026, 10, d, h).toISOString();

describe('conversation groups', () => {
  it('puts a conversation under Today, Yesterday, Last 7 days or Older by local calendar day', () => {
    expect(groupOf(new Date(2026, 10, 23, 0, 1), now)).toBe('Today');
    expect(groupOf(new Date(2026, 10, 22, 23, 59), now)).toBe('Yesterday');
    expect(groupOf(at(21), now)).toBe('Last 7 days');
    expect(groupOf(at(17), now)).toBe('Last 7 days');
    expect(groupOf(at(16), now)).toBe('Older');
    expect(groupOf(new Date(2025, 0, 1), now)).toBe('Older');
  });

  it('a clock slightly ahead of the reader still counts as Today', () => {
    expect(groupOf(new Date(2026, 10, 23, 10, 0), now)).toBe('Today');
  });

  it('keeps only non-empty groups, in the spec order, with the list order inside', () => {
    const items = [
      { id: 'a', updated_at: at(23, 9) },
      { id: 'b', updated_at: at(23, 8) },
      { id: 'c', updated_at: at(10) },
      { id: 'd', updated_at: at(20) },
    ];
    expect(groupConversations(items, now).map((g) => [g.group, g.items.map((i) => i.id)])).toEqual([
      ['Today', ['a', 'b']],
      ['Last 7 days', ['d']],
      ['Older', ['c']],
    ]);
  });
});
