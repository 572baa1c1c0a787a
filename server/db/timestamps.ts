/** ISO-8601 UTC with milliseconds: the one timestamp format in the database (sorts as text). */
export function isoNow(): string {
  return new Date().toISOString();
}

export function isoFromNow(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}

/** A row's life from now: both ends from one reading of the clock, so it lasts exactly `ms`. */
export function lifetimeFromNow(ms: number): { created_at: string; expires_at: string } {
  const now = Date.now();
  return { created_at: new Date(now).toISOString(), expires_at: new Date(now + ms).toISOString() };
}
