import fs from 'node:fs';

// DATA_DIR holds the database, the signing secret and mails with reset links: nobody but the server's own user
// may read them. Modes are set with chmod after creating, because mkdir's and open's modes pass through the
// umask. What exists already is left as the operator made it.

/** Creates `dir` (and missing parents) for the owner only (0700). */
export function ensurePrivateDir(dir: string): void {
  if (fs.mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined) fs.chmodSync(dir, 0o700);
}

/** Creates an empty `file` for the owner only (0600), unless it exists. */
export function ensurePrivateFile(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, 'wx', 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw err;
  }
  fs.chmodSync(file, 0o600);
}
