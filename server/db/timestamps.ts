/** ISO-8601 UTC with milliseconds: the one timestamp format in the database (sorts as text). */
export function isoNow(): string {
  return new Date().toISOString();
}

export function isoFromNow(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}
