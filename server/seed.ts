import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './db/database';
import { countClients, insertClient } from './db/repositories/clients';
import { insertDepartment, insertUnit } from './db/repositories/departments';
import { findPackageByType, insertPackage } from './db/repositories/packages';
import { insertSubscription } from './db/repositories/subscriptions';
import { insertUser } from './db/repositories/users';
import { inTransaction } from './db/transaction';
import { hashPassword } from './services/identity/passwords';
import { syncTips } from './services/chat/tips';

const DAY_MS = 86_400_000;

export interface DemoAccount {
  email: string;
  name: string;
  role: 'superuser' | 'admin' | 'user';
}

export interface SeedResult {
  /** False when the database already held an organisation: nothing was written. */
  seeded: boolean;
  accounts: DemoAccount[];
  /** The demo accounts' password: the one given, or a random one generated now (print it; it is not stored). */
  password?: string;
}

export interface SeedOptions {
  /** DEMO_PASSWORD; omitted: a random password. */
  password?: string;
  /** PUBLIC_URL, stored as the demo organisation's origin. */
  publicUrl: string;
}

export const DEMO_ACCOUNTS: DemoAccount[] = [
  { email: 'super@demo.local', name: 'Siti Superuser', role: 'superuser' },
  { email: 'admin@demo.local', name: 'Adam Admin', role: 'admin' },
  { email: 'user@demo.local', name: 'Nur User', role: 'user' },
  { email: 'newhire@demo.local', name: 'Nina Newhire', role: 'user' },
];

const DEPARTMENTS: Record<string, string[]> = {
  Finance: ['Accounts Payable', 'Payroll'],
  Engineering: ['Platform', 'Applications'],
  'Human Resources': ['Recruitment', 'People Operations'],
};

/** The chat features of each demo package (organisation/entitlements.ts); the migrations add standard and premium. */
const PACKAGES: Record<string, string[]> = {
  free: ['browsing', 'reasoning'],
  standard: ['browsing', 'reasoning'],
  premium: ['browsing', 'image_generation', 'reasoning'],
};

export function randomDemoPassword(): string {
  return randomBytes(12).toString('base64url');
}

/**
 * Demo data for a fresh install; does nothing when any organisation exists. The product's own content (tips) is
 * not demo data: it is brought up to date first, on every start, whatever the database holds.
 */
export async function seedDemoData(db: Kysely<Database>, opts: SeedOptions): Promise<SeedResult> {
  await syncTips(db);
  if ((await countClients(db)) > 0) return { seeded: false, accounts: [] };
  const password = opts.password ?? randomDemoPassword();
  const passwordHash = await hashPassword(password);

  await inTransaction(db, async (trx) => {
    const packages = new Map<string, string>();
    for (const [type, features] of Object.entries(PACKAGES)) {
      packages.set(type, ((await findPackageByType(trx, type)) ?? (await insertPackage(trx, { type, features }))).id);
    }
    const client = await insertClient(trx, {
      client_name: 'Demo Organisation',
      email: 'admin@demo.local',
      phone: null,
      origin: opts.publicUrl,
      status: 'active',
      auth_type: 'email',
      client_type: 'corporate',
    });
    const now = Date.now();
    await insertSubscription(trx, {
      client_id: client.id,
      package_id: packages.get('premium')!,
      max_users: 100,
      fair_use: 100,
      start_date: new Date(now - DAY_MS).toISOString(),
      expire_date: new Date(now + 365 * DAY_MS).toISOString(),
    });

    const units = new Map<string, { departmentId: string; unitId: string }>();
    for (const [name, unitNames] of Object.entries(DEPARTMENTS)) {
      const department = await insertDepartment(trx, client.id, name);
      for (const unitName of unitNames) {
        const unit = await insertUnit(trx, department.id, unitName);
        units.set(`${name}/${unitName}`, { departmentId: department.id, unitId: unit.id });
      }
    }
    const platform = units.get('Engineering/Platform')!;
    const placement: Record<string, { client_id: string | null; department_id?: string; unit_id?: string }> = {
      'super@demo.local': { client_id: null },
      'admin@demo.local': { client_id: client.id },
      'user@demo.local': { client_id: client.id, department_id: platform.departmentId, unit_id: platform.unitId },
      'newhire@demo.local': { client_id: client.id },
    };
    for (const account of DEMO_ACCOUNTS) {
      await insertUser(trx, {
        ...account,
        ...placement[account.email],
        password_hash: passwordHash,
        status: 'active',
        verified: true,
      });
    }
  });
  return { seeded: true, accounts: DEMO_ACCOUNTS, password };
}
