import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, UsersTable } from '../database';
import { preparedQuery, type Slots } from '../prepared-query';
import { isoNow } from '../timestamps';
import { containsText } from './contains';

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
    session_version: 0,
    theme: 'system',
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

/**
 * The user, the organisation's status, and whether the sign-in `familyId` (a refresh-token family) is still live (a
 * token of it not revoked: logout and a stolen refresh token revoke them all), in one query: run on every
 * authenticated request, so it reads what is true now, on any instance, for an indexed lookup more
 * (refresh_tokens_family_id_idx). A family whose rows are gone counts as ended.
 */
export async function findUserForSession(
  db: Kysely<Database>,
  id: string,
  familyId: string,
): Promise<(UserRecord & { client_status: string | null; session_live: boolean }) | undefined> {
  const row = await userForSession.executeTakeFirst(db, id, familyId);
  // exists() is 0/1 on SQLite, a boolean on PostgreSQL.
  return row && { ...toRecord(row), client_status: row.client_status, session_live: Boolean(row.session_live) };
}

// Every authenticated request runs this: compiled once (see prepared-query.ts).
const userForSession = preparedQuery((db, slot: Slots<[id: string, familyId: string]>) =>
  db
    .selectFrom('users')
    .leftJoin('clients', 'clients.id', 'users.client_id')
    .selectAll('users')
    .select('clients.status as client_status')
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('refresh_tokens')
            .select('refresh_tokens.id')
            .where('refresh_tokens.family_id', '=', slot(1))
            .where('refresh_tokens.revoked_at', 'is', null),
        )
        .as('session_live'),
    )
    .where('users.id', '=', slot(0)),
);

/** Refuses every access token the person holds now (they carry the old version): see services/session.ts. */
export async function raiseSessionVersion(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ session_version: eb('session_version', '+', 1), updated_at: isoNow() }))
    .where('id', '=', id)
    .execute();
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

export async function findUserInClient(db: Kysely<Database>, clientId: string, id: string): Promise<UserRecord | undefined> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).where('client_id', '=', clientId).executeTakeFirst();
  return row && toRecord(row);
}

export interface UserListFilter {
  /** Omit for every organisation's people (the superuser's list). */
  clientId?: string;
  /** Part of the name or e-mail address, matched case-insensitively on both databases. */
  search?: string;
  status?: UsersTable['status'];
  limit: number;
  offset: number;
}

/** People by name, case aside (the same order on both databases), then id, with how many match in all. */
export async function listUsers(db: Kysely<Database>, filter: UserListFilter): Promise<{ rows: UserRecord[]; total: number }> {
  let query = db.selectFrom('users');
  if (filter.clientId !== undefined) query = query.where('client_id', '=', filter.clientId);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.search) {
    const text = filter.search;
    // E-mail addresses are stored lower-cased already (normaliseEmail).
    query = query.where((eb) => eb.or([containsText(eb.ref('name'), text), containsText(eb.ref('email'), text, { lowered: true })]));
  }
  const { n } = await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const rows = await query.selectAll().orderBy(sql`lower(name)`).orderBy('name').orderBy('id').limit(filter.limit).offset(filter.offset).execute();
  return { rows: rows.map(toRecord), total: Number(n) };
}

export interface UserChanges {
  name?: string;
  role?: UsersTable['role'];
  department_id?: string | null;
  unit_id?: string | null;
}

/** Applies the changes to a person of one organisation; false when there is none with that id there. */
export async function updateUserInClient(db: Kysely<Database>, clientId: string, id: string, changes: UserChanges): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ ...changes, updated_at: isoNow() })
    .where('id', '=', id)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The person proved they own the address (account activation). */
export async function markUserVerified(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('users').set({ verified: 1, updated_at: isoNow() }).where('id', '=', id).execute();
}
