import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { ClientsTable, Database } from '../database';
import { isoNow } from '../timestamps';
import { containsText } from './contains';

export type ClientRecord = Selectable<ClientsTable>;
export type NewClient = Omit<ClientRecord, 'id' | 'created_at' | 'updated_at'>;

export async function insertClient(db: Kysely<Database>, client: NewClient): Promise<ClientRecord> {
  const now = isoNow();
  const row: ClientRecord = { id: randomUUID(), ...client, created_at: now, updated_at: now };
  await db.insertInto('clients').values(row).execute();
  return row;
}

export async function findClientById(db: Kysely<Database>, id: string): Promise<ClientRecord | undefined> {
  return db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countClients(db: Kysely<Database>): Promise<number> {
  const { n } = await db
    .selectFrom('clients')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function updateClientStatus(db: Kysely<Database>, id: string, status: ClientRecord['status']): Promise<void> {
  await db.updateTable('clients').set({ status, updated_at: isoNow() }).where('id', '=', id).execute();
}

export interface ClientListFilter {
  /** Part of the name or e-mail address, case-insensitively. */
  search?: string;
  status?: ClientRecord['status'];
  clientType?: string;
  limit: number;
  offset: number;
}

/** One page of clients by name, case-insensitively (then id, so equal names page stably), with how many match in all. */
export async function listClients(db: Kysely<Database>, filter: ClientListFilter): Promise<{ rows: ClientRecord[]; total: number }> {
  let query = db.selectFrom('clients');
  if (filter.search) {
    const search = filter.search;
    query = query.where((eb) => eb.or([containsText(eb.ref('client_name'), search), containsText(eb.fn.coalesce('email', eb.val('')), search)]));
  }
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.clientType) query = query.where('client_type', '=', filter.clientType);
  const { n } = await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const rows = await pageInNameOrder(query, filter).execute();
  return { rows, total: Number(n) };
}

/** The page's rows in the order of the index clients_lower_name_name_id (exported for the test of its plan). */
export function pageInNameOrder(query: SelectQueryBuilder<Database, 'clients', object>, page: { limit: number; offset: number }) {
  return query.selectAll().orderBy(sql`lower(client_name)`).orderBy('client_name').orderBy('id').limit(page.limit).offset(page.offset);
}

export type ClientChanges = Partial<Omit<ClientRecord, 'id' | 'created_at' | 'updated_at'>>;

/** Applies the changes and returns the row as it is now (undefined when there is no such client). */
export async function updateClient(db: Kysely<Database>, id: string, changes: ClientChanges): Promise<ClientRecord | undefined> {
  await db.updateTable('clients').set({ ...changes, updated_at: isoNow() }).where('id', '=', id).execute();
  return findClientById(db, id);
}
