/**
 * The one way dates are shown to people (spec section 9): dd/mm/yyyy with 12-hour time and AM/PM, in the reader's
 * own time zone, e.g. "23/11/2026 01:52 PM". Written by hand rather than with Intl: locales disagree on the
 * order, the separators and the case of AM/PM, and the spec fixes all three.
 */
const pad = (n: number) => String(n).padStart(2, '0');

export function formatDate(value: string | Date): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return '';
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}

export function formatDateTime(value: string | Date): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return '';
  const hours = d.getHours();
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${formatDate(d)} ${pad(hour12)}:${pad(d.getMinutes())} ${hours < 12 ? 'AM' : 'PM'}`;
}
