import { formatDate, formatDateTime } from './format-date';

/**
 * When a message was written, as shown beside it: 'Today 02:03 PM', 'Yesterday 11:40 AM', else the date and time
 * ('23/11/2026 01:52 PM'), in the spec's own format (format-date.ts) and the reader's time zone. `now` is a
 * parameter so tests (and a page left open past midnight) read the same rule.
 */
export function messageTimeLabel(value: string | Date, now: Date = new Date()): string {
  const full = formatDateTime(value);
  if (!full) return '';
  const d = typeof value === 'string' ? new Date(value) : value;
  const time = full.slice(formatDate(d).length + 1);
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (sameDay(d, now)) return `Today ${time}`;
  if (sameDay(d, yesterday)) return `Yesterday ${time}`;
  return full;
}

/** The full date for the tooltip: 'Saturday, 28/11/2026 02:03 PM'. */
export function messageTimeTitle(value: string | Date): string {
  const full = formatDateTime(value);
  if (!full) return '';
  const d = typeof value === 'string' ? new Date(value) : value;
  return `${WEEKDAYS[d.getDay()]}, ${full}`;
}

// English only, as the rest of the interface (src/lib/app-locale.ts): no Intl call, whose first use loads ICU data.
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

const sameDay = (a: Date, b: Date) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
