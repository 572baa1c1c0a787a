/**
 * A whole number with commas between its thousands, as 'en-US' formats it ("20,000"). Without Intl on purpose:
 * the first Intl call in a page loads ICU's data, 10–20 ms of the main thread in profiles of opening a
 * conversation, and the spec texts with a limit in them are built when their modules load.
 */
export function groupedNumber(n: number): string {
  const digits = String(Math.trunc(Math.abs(n)));
  return `${n < 0 ? '-' : ''}${digits.replace(/\B(?=(\d{3})+$)/g, ',')}`;
}
