import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../../server/db/database';
import { insertClient } from '../../../server/db/repositories/clients';
import { insertDepartment, insertUnit } from '../../../server/db/repositories/departments';
import { findPackageByType } from '../../../server/db/repositories/packages';
import { insertSubscription } from '../../../server/db/repositories/subscriptions';
import { findUserByEmail, insertUser, type NewUser, type UserRecord } from '../../../server/db/repositories/users';
import { DEMO_PASSWORD } from './test-app';

const DAY_MS = 86_400_000;
export const API = '/api/v1';

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export function post(app: FastifyInstance, url: string, payload?: object, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: `${API}${url}`, payload, headers });
}

export async function login(app: FastifyInstance, email: string, password = DEMO_PASSWORD) {
  const res = await post(app, '/auth/login', { email, password });
  if (res.statusCode !== 200) throw new Error(`login ${email} failed: ${res.statusCode} ${res.body}`);
  return res.json().data as { access_token: string; refresh_token: string; user: { id: string } };
}

export function errorDetail(res: LightMyRequestResponse): string {
  return (res.json() as { detail: string }).detail;
}

export type SubscriptionState = 'active' | 'expired' | 'upcoming' | 'none';

/** Another organisation, with one department holding one unit. */
export async function createOrganisation(
  db: Kysely<Database>,
  opts: {
    name: string;
    status?: 'active' | 'inactive' | 'pending';
    subscription?: SubscriptionState;
    /** The subscribed package's type (seeded: free, standard, premium); standard by default. */
    packageType?: string;
  },
) {
  const client = await insertClient(db, {
    client_name: opts.name,
    email: null,
    phone: null,
    origin: null,
    status: opts.status ?? 'active',
    auth_type: 'email',
    client_type: 'corporate',
  });
  const state = opts.subscription ?? 'active';
  if (state !== 'none') {
    const pkg = await findPackageByType(db, opts.packageType ?? 'standard');
    const now = Date.now();
    const [start, end] = {
      active: [now - DAY_MS, now + 30 * DAY_MS],
      expired: [now - 60 * DAY_MS, now - DAY_MS],
      upcoming: [now + DAY_MS, now + 60 * DAY_MS],
    }[state];
    await insertSubscription(db, {
      client_id: client.id,
      package_id: pkg!.id,
      max_users: 10,
      fair_use: 10,
      start_date: new Date(start).toISOString(),
      expire_date: new Date(end).toISOString(),
    });
  }
  const department = await insertDepartment(db, client.id, `${opts.name} Operations`);
  const unit = await insertUnit(db, department.id, 'Logistics');
  return { client, department, unit };
}

/** A user whose password is DEMO_PASSWORD (the hash is borrowed from a seeded account: argon2 is slow). */
export async function addUser(
  db: Kysely<Database>,
  user: Omit<NewUser, 'password_hash' | 'role'> & { role?: NewUser['role'] },
): Promise<UserRecord> {
  const seeded = await findUserByEmail(db, 'user@demo.local');
  return insertUser(db, { role: 'user', verified: true, ...user, password_hash: seeded!.password_hash });
}

export async function demoClientId(db: Kysely<Database>): Promise<string> {
  const admin = await findUserByEmail(db, 'admin@demo.local');
  return admin!.client_id!;
}
