import { sql, type Kysely, type Selectable } from 'kysely';
import { tagKey } from '../../../shared/tags';
import type { Database, TipsTable } from '../database';
import { containsText } from './contains';
import type { PageWindow } from './conversations';

export interface TipRecord extends Omit<Selectable<TipsTable>, 'created_at' | 'updated_at'> {
  tags: string[];
}

const COLUMNS = ['t.id', 't.position', 't.title', 't.duration', 't.level', 't.persona', 't.content'] as const;

async function withTags(db: Kysely<Database>, rows: Omit<TipRecord, 'tags'>[]): Promise<TipRecord[]> {
  if (rows.length === 0) return [];
  const tags = await db
    .selectFrom('tip_tags')
    .select(['tip_id', 'tag'])
    .where(
      'tip_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('tip_id')
    .orderBy('position')
    .execute();
  return rows.map((row) => ({ ...row, tags: tags.filter((t) => t.tip_id === row.id).map((t) => t.tag) }));
}

export interface TipFilter {
  search?: string;
  level?: TipsTable['level'];
  persona?: string;
  /** tagKey()s: a tip with any of them. */
  tagKeys: readonly string[];
}

/** In the content file's order. */
export async function listTips(db: Kysely<Database>, filter: TipFilter, window: PageWindow): Promise<{ rows: TipRecord[]; total: number }> {
  let query = db.selectFrom('tips as t');
  if (filter.level) query = query.where('t.level', '=', filter.level);
  if (filter.persona) query = query.where('t.persona', '=', filter.persona);
  const { tagKeys, search } = filter;
  if (tagKeys.length > 0) {
    query = query.where(({ exists, selectFrom }) =>
      exists(selectFrom('tip_tags as g').select(sql.lit(1).as('one')).whereRef('g.tip_id', '=', 't.id').where('g.tag_key', 'in', tagKeys)),
    );
  }
  if (search) {
    query = query.where(({ or, exists, selectFrom }) =>
      or([
        containsText(sql.ref<string>('t.title'), search),
        containsText(sql.ref<string>('t.content'), search),
        exists(
          selectFrom('tip_tags as g')
            .select(sql.lit(1).as('one'))
            .whereRef('g.tip_id', '=', 't.id')
            .where(containsText(sql.ref<string>('g.tag_key'), search, { lowered: true })),
        ),
      ]),
    );
  }
  const { n } = await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const rows = await query.select(COLUMNS).orderBy('t.position').orderBy('t.id').limit(window.limit).offset(window.offset).execute();
  return { rows: await withTags(db, rows), total: Number(n) };
}

/** Every tip with its tags: what the content sync compares with the content file. */
export async function listAllTips(db: Kysely<Database>): Promise<TipRecord[]> {
  return withTags(db, await db.selectFrom('tips as t').select(COLUMNS).orderBy('t.position').execute());
}

/**
 * Writes these tips and their tags as given, in a few statements whatever their number. An upsert, so two
 * instances starting at once both succeed. Run in a transaction (tips and tags are separate writes).
 */
export async function saveTips(db: Kysely<Database>, tips: readonly TipRecord[], now: string): Promise<void> {
  if (tips.length === 0) return;
  await db
    .insertInto('tips')
    .values(tips.map(({ tags: _tags, ...row }) => ({ ...row, created_at: now, updated_at: now })))
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        position: eb.ref('excluded.position'),
        title: eb.ref('excluded.title'),
        duration: eb.ref('excluded.duration'),
        level: eb.ref('excluded.level'),
        persona: eb.ref('excluded.persona'),
        content: eb.ref('excluded.content'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
  await db
    .deleteFrom('tip_tags')
    .where(
      'tip_id',
      'in',
      tips.map((t) => t.id),
    )
    .execute();
  const tags = tips.flatMap((tip) => tip.tags.map((tag, position) => ({ tip_id: tip.id, position, tag, tag_key: tagKey(tag) })));
  if (tags.length > 0) await db.insertInto('tip_tags').values(tags).execute();
}

/** Removes the tips the content no longer has (their tags go with them). */
export async function deleteTipsExcept(db: Kysely<Database>, keep: readonly string[]): Promise<void> {
  let query = db.deleteFrom('tips');
  if (keep.length > 0) query = query.where('id', 'not in', keep);
  await query.execute();
}
