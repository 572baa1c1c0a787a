import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, SystemPromptsTable } from '../database';
import { preparedQuery, type Slots } from '../prepared-query';
import { isoNow } from '../timestamps';

export type SystemPromptRecord = Selectable<SystemPromptsTable>;
export type SystemPromptChanges = Partial<Pick<SystemPromptRecord, 'name' | 'content' | 'client_id' | 'is_active'>>;

export async function insertSystemPrompt(
  db: Kysely<Database>,
  input: Pick<SystemPromptRecord, 'name' | 'content' | 'client_id'>,
): Promise<SystemPromptRecord> {
  const now = isoNow();
  const row: SystemPromptRecord = { id: randomUUID(), ...input, is_active: 0, created_at: now, updated_at: now };
  await db.insertInto('system_prompts').values(row).execute();
  return row;
}

/** Everyone's first, then by client; the active one first within each, then by name. */
export async function listSystemPrompts(db: Kysely<Database>): Promise<SystemPromptRecord[]> {
  return db
    .selectFrom('system_prompts')
    .selectAll()
    .orderBy(sql`coalesce(client_id, '')`)
    .orderBy('is_active', 'desc')
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export async function findSystemPrompt(db: Kysely<Database>, id: string): Promise<SystemPromptRecord | undefined> {
  return db.selectFrom('system_prompts').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateSystemPrompt(db: Kysely<Database>, id: string, changes: SystemPromptChanges): Promise<boolean> {
  const result = await db.updateTable('system_prompts').set({ ...changes, updated_at: isoNow() }).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteSystemPrompt(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('system_prompts').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Deactivates the active prompt of the scope (`clientId` null: everyone's), if any. */
export async function deactivateScope(db: Kysely<Database>, clientId: string | null): Promise<void> {
  await db
    .updateTable('system_prompts')
    .set({ is_active: 0, updated_at: isoNow() })
    .where(sql`coalesce(client_id, '')`, '=', clientId ?? '')
    .where('is_active', '=', 1)
    .execute();
}

/**
 * The prompt that goes into a reply of a person of `clientId` (null: of no client): the client's active one, else
 * everyone's active one. Read before every reply, from the partial unique index: compiled once.
 */
export async function findEffectiveSystemPrompt(db: Kysely<Database>, clientId: string | null): Promise<Pick<SystemPromptRecord, 'id' | 'content'> | undefined> {
  const rows = await effectivePrompt.execute(db, clientId ?? '');
  // The client's own first: its scope key sorts after everyone's empty one.
  return rows.sort((x, y) => (x.scope === '' ? 1 : 0) - (y.scope === '' ? 1 : 0))[0];
}

const effectivePrompt = preparedQuery((db, slot: Slots<[scope: string]>) =>
  db
    .selectFrom('system_prompts')
    .select(['id', 'content', sql<string>`coalesce(client_id, '')`.as('scope')])
    .where('is_active', '=', 1)
    .where(sql`coalesce(client_id, '')`, 'in', [sql`''`, slot(0)]),
);
