import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config';
import { ensurePrivateDir } from '../../lib/private-files';

/**
 * JWT_SECRET when set; otherwise a secret generated on first start and kept in DATA_DIR/jwt-secret (0600),
 * so tokens survive restarts. Several instances need JWT_SECRET set (or a shared DATA_DIR).
 */
export function resolveJwtSecret(config: Pick<Config, 'jwtSecret' | 'dataDir'>): string {
  if (config.jwtSecret) return config.jwtSecret;
  const file = path.join(config.dataDir, 'jwt-secret');
  ensurePrivateDir(config.dataDir);
  try {
    fs.writeFileSync(file, randomBytes(64).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${file} holds a secret shorter than 32 characters; delete it to regenerate`);
  return secret;
}
