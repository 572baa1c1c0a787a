/**
 * Whether a write failed on a unique index: SQLSTATE 23505 from PostgreSQL (pg), SQLITE_CONSTRAINT_UNIQUE from
 * SQLite (better-sqlite3). Lets a service answer a clash that raced past its own check like the check would have.
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Whether a write named a row that is gone (a department deleted while a unit was added to it). */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

const codeOf = (err: unknown) => (typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined);
