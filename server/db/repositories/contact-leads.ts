import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { ContactLeadsTable, Database } from '../database';
import { isoNow } from '../timestamps';

export type ContactLeadRecord = Selectable<ContactLeadsTable>;

export async function insertContactLead(db: Kysely<Database>, lead: Omit<ContactLeadRecord, 'id' | 'created_at'>): Promise<ContactLeadRecord> {
  const row: ContactLeadRecord = { id: randomUUID(), created_at: isoNow(), ...lead };
  await db.insertInto('contact_leads').values(row).execute();
  return row;
}

export async function findContactLead(db: Kysely<Database>, id: string): Promise<ContactLeadRecord | undefined> {
  return db.selectFrom('contact_leads').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Newest first, a page at a time, along the (created_at, id) index. */
export async function listContactLeads(db: Kysely<Database>, page: number, pageSize: number): Promise<{ rows: ContactLeadRecord[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('contact_leads')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    db.selectFrom('contact_leads').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
