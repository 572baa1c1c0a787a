import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import { tagKey } from '../../../shared/tags';
import type { Database, PromptLibraryTable } from '../database';
import { lockRow } from '../row-lock';
import { isoNow } from '../timestamps';
import { containsText } from './contains';
import type { PageWindow } from './conversations';

export interface PromptRecord extends Selectable<PromptLibraryTable> {
  tags: string[];
}

const COLUMNS = ['id', 'user_id', 'prompt', 'created_at', 'updated_at'] as const;

/** Callers run it in a transaction with the prompt's own write. */
async function writeTags(db: Kysely<Database>, promptId: string, tags: readonly string[]): Promise<void> {
  await db.deleteFrom('prompt_library_tags').where('prompt_id', '=', promptId).execute();
  if (tags.length === 0) return;
  await db
    .insertInto('prompt_library_tags')
    .values(tags.map((tag, position) => ({ prompt_id: promptId, position, tag, tag_key: tagKey(tag) })))
    .execute();
}

/** Each prompt's tags, in their order. */
async function tagsOf(db: Kysely<Database>, promptIds: readonly string[]): Promise<Map<string, string[]>> {
  const byPrompt = new Map<string, string[]>(promptIds.map((id) => [id, []]));
  if (promptIds.length === 0) return byPrompt;
  const rows = await db
    .selectFrom('prompt_library_tags')
    .select(['prompt_id', 'tag'])
    .where('prompt_id', 'in', promptIds)
    .orderBy('prompt_id')
    .orderBy('position')
    .execute();
  for (const row of rows) byPrompt.get(row.prompt_id)?.push(row.tag);
  return byPrompt;
}

/** Run in a transaction (the prompt and its tags are two writes). */
export async function insertPrompt(db: Kysely<Database>, userId: string, prompt: string, tags: readonly string[]): Promise<PromptRecord> {
  const now = isoNow();
  const row = { id: randomUUID(), user_id: userId, prompt, created_at: now, updated_at: now };
  await db.insertInto('prompt_library').values(row).execute();
  await writeTags(db, row.id, tags);
  return { ...row, tags: [...tags] };
}

/** Undefined for an unknown id and for another person's prompt alike. Run in a transaction. */
export async function updateOwnPrompt(
  db: Kysely<Database>,
  userId: string,
  id: string,
  prompt: string,
  tags: readonly string[],
): Promise<PromptRecord | undefined> {
  const row = await db
    .updateTable('prompt_library')
    .set({ prompt, updated_at: isoNow() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(COLUMNS)
    .executeTakeFirst();
  if (!row) return undefined;
  await writeTags(db, id, tags);
  return { ...row, tags: [...tags] };
}

export async function findOwnPrompt(db: Kysely<Database>, userId: string, id: string): Promise<PromptRecord | undefined> {
  const row = await db.selectFrom('prompt_library').select(COLUMNS).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) return undefined;
  return { ...row, tags: (await tagsOf(db, [id])).get(id) ?? [] };
}

/** Its tags go with it (foreign key cascade). */
export async function deleteOwnPrompt(db: Kysely<Database>, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('prompt_library').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export interface PromptFilter {
  /** tagKey()s: a prompt with any of them. */
  tagKeys: readonly string[];
  /** Text found in the prompt or in one of its tags, case-insensitively. */
  search?: string;
}

/** One person's prompts, last changed first, served by the (user_id, updated_at, id) index. */
export async function listOwnPrompts(
  db: Kysely<Database>,
  userId: string,
  filter: PromptFilter,
  window: PageWindow,
): Promise<{ rows: PromptRecord[]; total: number }> {
  let query = db.selectFrom('prompt_library as p').where('p.user_id', '=', userId);
  const { tagKeys, search } = filter;
  if (tagKeys.length > 0) {
    query = query.where(({ exists, selectFrom }) =>
      exists(selectFrom('prompt_library_tags as t').select(sql.lit(1).as('one')).whereRef('t.prompt_id', '=', 'p.id').where('t.tag_key', 'in', tagKeys)),
    );
  }
  if (search) {
    query = query.where(({ or, exists, selectFrom }) =>
      or([
        containsText(sql.ref<string>('p.prompt'), search),
        exists(
          selectFrom('prompt_library_tags as t')
            .select(sql.lit(1).as('one'))
            .whereRef('t.prompt_id', '=', 'p.id')
            .where(containsText(sql.ref<string>('t.tag_key'), search, { lowered: true })),
        ),
      ]),
    );
  }
  const { n } = await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .select(['p.id', 'p.user_id', 'p.prompt', 'p.created_at', 'p.updated_at'])
    .orderBy('p.updated_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  const tags = await tagsOf(db, rows.map((r) => r.id));
  return { rows: rows.map((r) => ({ ...r, tags: tags.get(r.id) ?? [] })), total: Number(n) };
}

/** Holds the person's row until the transaction ends: two saves that write and then measure the library are serial. */
export function lockPromptLibrary(db: Kysely<Database>, userId: string): Promise<void> {
  return lockRow(db, 'users', userId);
}

/** How many prompts the person keeps and their characters in all (length(): characters on both databases). */
export async function promptLibrarySize(db: Kysely<Database>, userId: string): Promise<{ prompts: number; chars: number }> {
  const row = await db
    .selectFrom('prompt_library')
    .select((eb) => [eb.fn.countAll().as('prompts'), eb.fn.coalesce(eb.fn.sum<number | string>(eb.fn('length', ['prompt'])), eb.lit(0)).as('chars')])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  // PostgreSQL counts as bigint and sums as numeric, which pg hands over as text.
  return { prompts: Number(row.prompts), chars: Number(row.chars) };
}
