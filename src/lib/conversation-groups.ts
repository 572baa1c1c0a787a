/** The spec's conversation list groups, newest first. */
export const CONVERSATION_GROUPS = ['Today', 'Yesterday', 'Last 7 days', 'Older'] as const;
export type ConversationGroup = (typeof CONVERSATION_GROUPS)[number];

const DAY_MS = 86_400_000;

function startOfLocalDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** Which group a conversation active at `at` falls in, by the reader's local calendar days. */
export function groupOf(at: string | Date, now: Date = new Date()): ConversationGroup {
  const day = startOfLocalDay(new Date(at));
  const today = startOfLocalDay(now);
  // Calendar days, not 24-hour spans: rounding absorbs a daylight-saving hour.
  const daysAgo = Math.round((today - day) / DAY_MS);
  if (daysAgo <= 0) return 'Today';
  if (daysAgo === 1) return 'Yesterday';
  if (daysAgo < 7) return 'Last 7 days';
  return 'Older';
}

/** Splits an ordered list into the non-empty groups, keeping the order inside each group. */
export function groupConversations<T extends { updated_at: string }>(items: T[], now: Date = new Date()) {
  const byGroup = new Map<ConversationGroup, T[]>();
  for (const item of items) {
    const group = groupOf(item.updated_at, now);
    const list = byGroup.get(group) ?? [];
    list.push(item);
    byGroup.set(group, list);
  }
  return CONVERSATION_GROUPS.filter((g) => byGroup.has(g)).map((group) => ({ group, items: byGroup.get(group)! }));
}
