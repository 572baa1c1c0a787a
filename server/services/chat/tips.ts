import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import { tip as tipSchema, type TipLevel, type TipList, type TipPersona } from '../../../contract/tips';
import { tagKey } from '../../../shared/tags';
import type { Database } from '../../db/database';
import { deleteTipsExcept, listAllTips, listTips as listTipRows, saveTips, type TipRecord } from '../../db/repositories/tips';
import { isoNow } from '../../db/timestamps';
import { inTransaction } from '../../db/transaction';
import { TIPS } from '../../db/tips-content';
import { pageWindow, totalPages } from '../paging';

export interface TipListOptions {
  page: number;
  limit: number;
  search?: string;
  level?: TipLevel;
  persona?: TipPersona;
  /** Normalised tags (see shared/tags.ts); empty or absent: no tag filter. */
  tags?: string[];
}

/** Tips are the product's own content: the same for every organisation and every role. */
export async function listTips(db: Kysely<Database>, opts: TipListOptions): Promise<TipList> {
  const { rows, total } = await listTipRows(
    db,
    { search: opts.search || undefined, level: opts.level, persona: opts.persona, tagKeys: (opts.tags ?? []).map(tagKey) },
    pageWindow(opts.page, opts.limit),
  );
  return {
    // Through the contract, so a persona written into the database by hand cannot break the answer unnoticed.
    tips: rows.map(({ position: _position, ...row }) => tipSchema.parse(row)),
    total,
    total_pages: totalPages(total, opts.limit),
    page: opts.page,
    limit: opts.limit,
  };
}

/**
 * Makes the tips table hold exactly server/db/tips-content.ts: new tips added, edited ones rewritten, removed
 * ones deleted, unchanged ones left alone (so running it on every start writes nothing once up to date).
 * Returns how many tips were written or removed.
 */
export async function syncTips(db: Kysely<Database>): Promise<number> {
  const wanted: TipRecord[] = TIPS.map((content, position) => ({ ...content, tags: [...content.tags], position }));
  const stored = new Map((await listAllTips(db)).map((t) => [t.id, t]));
  const changed = wanted.filter((t) => !isDeepStrictEqual(stored.get(t.id), t));
  const removed = [...stored.keys()].filter((id) => !wanted.some((t) => t.id === id));
  if (changed.length === 0 && removed.length === 0) return 0;
  await inTransaction(db, async (trx) => {
    await saveTips(trx, changed, isoNow());
    if (removed.length > 0) await deleteTipsExcept(trx, wanted.map((t) => t.id));
  });
  return changed.length + removed.length;
}
