import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Secrets the server must give back to a provider (OAuth client secrets) are stored sealed with AES-256-GCM: a random
// 12-byte IV per secret, and the row's identity as additional data, so a sealed value copied onto another row (or
// altered in any byte) fails to open instead of opening as someone else's.

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_BYTES = 32;

/** The key is wrong, or the sealed value was altered or belongs to another row. */
export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

/** `v1.<iv>.<tag>.<ciphertext>`, each base64url. */
export function sealSecret(key: Buffer, plaintext: string, boundTo: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(boundTo, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The plaintext, or SecretBoxError: never a partial or garbled secret. */
export function openSecret(key: Buffer, sealed: string, boundTo: string): string {
  const [version, iv, tag, body, ...rest] = sealed.split('.');
  if (version !== VERSION || iv === undefined || tag === undefined || body === undefined || rest.length > 0) {
    throw new SecretBoxError('not a sealed secret');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(boundTo, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError('the key is wrong or the sealed secret was altered');
  }
}

/** A 32-byte key written as 64 hex digits or as base64 (or base64url); undefined for anything else. */
export function parseSecretKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === SECRET_KEY_BYTES ? bytes : undefined;
}
