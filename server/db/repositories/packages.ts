import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../database';
import { isoNow } from '../timestamps';

export interface PackageRecord {
  id: string;
  type: string;
  features: string[];
  created_at: string;
}

export async function insertPackage(db: Kysely<Database>, pkg: { type: string; features: string[] }): Promise<PackageRecord> {
  const row = { id: randomUUID(), type: pkg.type, features: JSON.stringify(pkg.features), created_at: isoNow() };
  await db.insertInto('packages').values(row).execute();
  return { ...row, features: pkg.features };
}

export async function findPackageByType(db: Kysely<Database>, type: string): Promise<PackageRecord | undefined> {
  const row = await db.selectFrom('packages').selectAll().where('type', '=', type).executeTakeFirst();
  return row && { ...row, features: JSON.parse(row.features) as string[] };
}
