import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, UsersTable } from '../database';
import { isoNow } from '../timestamps';

export interface UserRecord extends Omit<Selectable<UsersTable>, 'verified'> {
  verified: boolean;
}

export interface NewUser {
  client_id: string | null;
  name: string;
  email: string;
  password_hash: string | null;
  role: UsersTable['role'];
  status?: UsersTable['status'];
  verified?: boolean;
  image_url?: string | null;
  department_id?: string | null;
  unit_id?: string | null;
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

function toRecord(row: Selectable<UsersTable>): UserRecord {
  return { ...row, verified: row.verified === 1 };
}

export async function insertUser(db: Kysely<Database>, user: NewUser): Promise<UserRecord> {
  const now = isoNow();
  const row: Selectable<UsersTable> = {
    id: randomUUID(),
    client_id: user.client_id,
    name: user.name,
    email: normaliseEmail(user.email),
    password_hash: user.password_hash,
    role: user.role,
    status: user.status ?? 'active',
    verified: user.verified ? 1 : 0,
    image_url: user.image_url ?? null,
    department_id: user.department_id ?? null,
    unit_id: user.unit_id ?? null,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('users').values(row).execute();
  return toRecord(row);
}

export async function findUserById(db: Kysely<Database>, id: string): Promise<UserRecord | undefined> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toRecord(row);
}

export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRecord | undefined> {
  const row = await db.selectFrom('users').selectAll().where('email', '=', normaliseEmail(email)).executeTakeFirst();
  return row && toRecord(row);
}

/** The user plus the organisation's status, in one query: run on every authenticated request. */
export async function findUserWithClientStatus(
  db: Kysely<Database>,
  id: string,
): Promise<(UserRecord & { client_status: string | null }) | undefined> {
  const row = await db
    .selectFrom('users')
    .leftJoin('clients', 'clients.id', 'users.client_id')
    .selectAll('users')
    .select('clients.status as client_status')
    .where('users.id', '=', id)
    .executeTakeFirst();
  return row && { ...toRecord(row), client_status: row.client_status };
}

export async function updateUserDepartment(
  db: Kysely<Database>,
  id: string,
  departmentId: string,
  unitId: string | null,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ department_id: departmentId, unit_id: unitId, updated_at: isoNow() })
    .where('id', '=', id)
    .execute();
}

export async function updateUserPassword(db: Kysely<Database>, id: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: isoNow() }).where('id', '=', id).execute();
}

export async function updateUserStatus(db: Kysely<Database>, id: string, status: UsersTable['status']): Promise<void> {
  await db.updateTable('users').set({ status, updated_at: isoNow() }).where('id', '=', id).execute();
}
