import type { Kysely } from 'kysely';
import { PROMPT_NOT_FOUND } from '../../contract/prompt-library-constants';
import type { PromptEntry, PromptList } from '../../contract/prompt-library';
import { tagKey } from '../../contract/tags';
import type { Database } from '../db/database';
import {
  deleteOwnPrompt,
  findOwnPrompt,
  insertPrompt,
  listOwnPrompts,
  updateOwnPrompt,
  type PromptRecord,
} from '../db/repositories/prompt-library';
import { inTransaction } from '../db/transaction';
import { NotFoundError } from './errors';
import { pageWindow, totalPages } from './paging';

// Each person's own library: another person's prompt answers exactly like one that does not exist.

/** A prompt and its tags as the route's schema left them: trimmed, tags normalised and within the limits. */
export interface PromptInput {
  prompt: string;
  tags: string[];
}

export interface PromptListOptions {
  page: number;
  limit: number;
  /** Normalised tags (see contract/tags.ts); empty or absent: no tag filter. */
  tags?: string[];
  search?: string;
}

function toEntry(record: PromptRecord): PromptEntry {
  return { id: record.id, prompt: record.prompt, tags: record.tags, created_at: record.created_at, updated_at: record.updated_at };
}

export async function listPrompts(db: Kysely<Database>, userId: string, opts: PromptListOptions): Promise<PromptList> {
  const { rows, total } = await listOwnPrompts(
    db,
    userId,
    { tagKeys: (opts.tags ?? []).map(tagKey), search: opts.search || undefined },
    pageWindow(opts.page, opts.limit),
  );
  return { data: rows.map(toEntry), page: opts.page, total_pages: totalPages(total, opts.limit), total };
}

export async function getPrompt(db: Kysely<Database>, userId: string, id: string): Promise<PromptEntry> {
  const record = await findOwnPrompt(db, userId, id);
  if (!record) throw new NotFoundError(PROMPT_NOT_FOUND);
  return toEntry(record);
}

export async function createPrompt(db: Kysely<Database>, userId: string, input: PromptInput): Promise<PromptEntry> {
  return toEntry(await inTransaction(db, (trx) => insertPrompt(trx, userId, input.prompt, input.tags)));
}

export async function updatePrompt(db: Kysely<Database>, userId: string, id: string, input: PromptInput): Promise<PromptEntry> {
  const record = await inTransaction(db, (trx) => updateOwnPrompt(trx, userId, id, input.prompt, input.tags));
  if (!record) throw new NotFoundError(PROMPT_NOT_FOUND);
  return toEntry(record);
}

export async function deletePrompt(db: Kysely<Database>, userId: string, id: string): Promise<void> {
  if (!(await deleteOwnPrompt(db, userId, id))) throw new NotFoundError(PROMPT_NOT_FOUND);
}
