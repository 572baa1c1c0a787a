import { sql, type Expression, type RawBuilder } from 'kysely';

/** `%text%` lower-cased for LIKE, with %, _ and the escape character itself taken literally. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `lower(value) like '%text%'`: case-insensitive on both databases (SQLite's lower() folds ASCII letters only).
 * Pass `lowered: true` for a column the application stores lower-cased already (tag keys), which folds them all.
 */
export function containsText(value: Expression<string>, text: string, opts: { lowered?: boolean } = {}): RawBuilder<boolean> {
  const subject = opts.lowered ? sql`${value}` : sql`lower(${value})`;
  return sql<boolean>`${subject} like ${containsPattern(text)} escape '\\'`;
}
