import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, PackagesTable } from '../database';
import { isoNow } from '../timestamps';

export interface PackageRecord {
  id: string;
  type: string;
  features: string[];
  created_at: string;
}

/** The stored JSON list of feature names, read leniently: anything but a list of strings is no features. */
export function parseFeatures(json: string | null | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(json ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

const toRecord = (row: Selectable<PackagesTable>): PackageRecord => ({ ...row, features: parseFeatures(row.features) });

export async function insertPackage(db: Kysely<Database>, pkg: { type: string; features: string[] }): Promise<PackageRecord> {
  const row = { id: randomUUID(), type: pkg.type, features: JSON.stringify(pkg.features), created_at: isoNow() };
  await db.insertInto('packages').values(row).execute();
  return { ...row, features: pkg.features };
}

export async function findPackageByType(db: Kysely<Database>, type: string): Promise<PackageRecord | undefined> {
  const row = await db.selectFrom('packages').selectAll().where('type', '=', type).executeTakeFirst();
  return row && toRecord(row);
}

export async function findPackageById(db: Kysely<Database>, id: string): Promise<PackageRecord | undefined> {
  const row = await db.selectFrom('packages').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toRecord(row);
}

/** Every package, by type. */
export async function listPackages(db: Kysely<Database>): Promise<PackageRecord[]> {
  return (await db.selectFrom('packages').selectAll().orderBy('type').execute()).map(toRecord);
}

export async function setPackageFeatures(db: Kysely<Database>, id: string, features: string[]): Promise<void> {
  await db.updateTable('packages').set({ features: JSON.stringify(features) }).where('id', '=', id).execute();
}
