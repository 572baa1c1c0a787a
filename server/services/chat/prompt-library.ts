import type { Kysely } from 'kysely';
import {
  PROMPT_NOT_FOUND,
  promptLibraryFull,
  promptLibraryTooLong,
  tooManyPromptSaves,
} from '../../../contract/prompt-library-constants';
import type { PromptEntry, PromptList } from '../../../contract/prompt-library';
import { tagKey } from '../../../shared/tags';
import type { AppContext } from '../../context';
import type { Database } from '../../db/database';
import {
  deleteOwnPrompt,
  findOwnPrompt,
  insertPrompt,
  listOwnPrompts,
  lockPromptLibrary,
  promptLibrarySize,
  updateOwnPrompt,
  type PromptRecord,
} from '../../db/repositories/prompt-library';
import { inTransaction } from '../../db/transaction';
import { NotFoundError, TooLargeError } from '../errors';
import { pageWindow, totalPages } from '../paging';
import { enforceRateLimits } from '../../platform/rate-limit';

type SaveContext = Pick<AppContext, 'db' | 'rateLimits' | 'config'>;

// Each person's own library: another person's prompt answers exactly like one that does not exist.

/** A prompt and its tags as the route's schema left them: trimmed, tags normalised and within the limits. */
export interface PromptInput {
  prompt: string;
  tags: string[];
}

export interface PromptListOptions {
  page: number;
  limit: number;
  /** Normalised tags (see shared/tags.ts); empty or absent: no tag filter. */
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

/** A save (new prompt or edit) counts against PROMPT_RATE_LIMIT_PER_USER before any work: 429 past it. */
async function countSave(ctx: SaveContext, userId: string): Promise<void> {
  await enforceRateLimits(ctx.rateLimits, [
    { key: `prompts:user:${userId}`, rule: ctx.config.rateLimits.promptsPerUser, refusal: tooManyPromptSaves },
  ]);
}

/**
 * Runs `write` with the library locked, then measures it: a library that the write took past its limits
 * (PROMPT_LIBRARY_MAX_PROMPTS for a new prompt, PROMPT_LIBRARY_MAX_CHARS for any save) refuses it with 413 and the
 * write is rolled back. Measuring after the write counts an edit's new text instead of its old one.
 */
async function saveWithinLibrary<T extends PromptRecord | undefined>(
  ctx: SaveContext,
  userId: string,
  adds: boolean,
  write: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const { maxPrompts, maxChars } = ctx.config.promptLibrary;
  return inTransaction(ctx.db, async (trx) => {
    await lockPromptLibrary(trx, userId);
    const saved = await write(trx);
    // An edit of a prompt that is not the person's changed nothing: the caller answers 404.
    if (saved === undefined) return saved;
    const size = await promptLibrarySize(trx, userId);
    if (adds && size.prompts > maxPrompts) throw new TooLargeError(promptLibraryFull(maxPrompts), 'prompt_library_full');
    if (size.chars > maxChars) throw new TooLargeError(promptLibraryTooLong(maxChars), 'prompt_library_full');
    return saved;
  });
}

export async function createPrompt(ctx: SaveContext, userId: string, input: PromptInput): Promise<PromptEntry> {
  await countSave(ctx, userId);
  const record = await saveWithinLibrary(ctx, userId, true, (trx) => insertPrompt(trx, userId, input.prompt, input.tags));
  return toEntry(record);
}

export async function updatePrompt(ctx: SaveContext, userId: string, id: string, input: PromptInput): Promise<PromptEntry> {
  await countSave(ctx, userId);
  const record = await saveWithinLibrary(ctx, userId, false, (trx) => updateOwnPrompt(trx, userId, id, input.prompt, input.tags));
  if (!record) throw new NotFoundError(PROMPT_NOT_FOUND);
  return toEntry(record);
}

export async function deletePrompt(db: Kysely<Database>, userId: string, id: string): Promise<void> {
  if (!(await deleteOwnPrompt(db, userId, id))) throw new NotFoundError(PROMPT_NOT_FOUND);
}
