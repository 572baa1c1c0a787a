import type { Kysely } from 'kysely';
import { storageFull } from '../../../contract/documents-constants';
import type { Database } from '../../db/database';
import { organisationStoredBytes } from '../../db/repositories/documents';
import { lockOrganisation } from '../../db/repositories/seats';
import { TooLargeError } from '../errors';

const MB = 1024 * 1024;

/**
 * MB of stored files an organisation may keep, by its package (entitlements.ts names the package). One place;
 * STORAGE_QUOTA_MB changes any of them. A package this table does not know gets the standard quota, as it gets
 * the non-premium features.
 */
export const BUILT_IN_STORAGE_QUOTA_MB: Readonly<Record<string, number>> = {
  free: 1024,
  standard: 10 * 1024,
  premium: 50 * 1024,
};

/** The package's quota in MB: STORAGE_QUOTA_MB's own entry for it, else its '*', else the built-in table. */
export function storageQuotaMbOf(packageName: string, configured: Readonly<Record<string, number>>): number {
  const name = packageName.toLowerCase();
  return configured[name] ?? configured['*'] ?? BUILT_IN_STORAGE_QUOTA_MB[name] ?? BUILT_IN_STORAGE_QUOTA_MB.standard;
}

/** "50 GB", "1.5 GB", "500 MB": the quota as the refusal names it. */
export function quotaText(mb: number): string {
  if (mb < 1024) return `${mb} MB`;
  return `${Math.round((mb / 1024) * 10) / 10} GB`;
}

/**
 * Refuses (TooLargeError, 413, code storage_full) a file of `bytes` that would take the organisation's stored
 * files past `quotaMb`. `db` must be the transaction that then inserts the file's row: the organisation's row
 * stays locked until it ends, so parallel uploads are counted one after the other and cannot all fit into the
 * same last megabytes (PostgreSQL row lock; SQLite runs one write transaction at a time anyway).
 */
export async function claimStorage(db: Kysely<Database>, clientId: string, bytes: number, quotaMb: number): Promise<void> {
  await lockOrganisation(db, clientId);
  const used = await organisationStoredBytes(db, clientId);
  if (used + bytes > quotaMb * MB) throw new TooLargeError(storageFull(quotaText(quotaMb)), 'storage_full');
}
