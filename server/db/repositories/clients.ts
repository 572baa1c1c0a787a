import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { ClientsTable, Database } from '../database';
import { isoNow } from '../timestamps';

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
