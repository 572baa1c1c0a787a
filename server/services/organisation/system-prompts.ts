import type { Kysely } from 'kysely';
import type {
  CreateSystemPromptRequest,
  SystemPrompt,
  SystemPromptList,
  SystemPromptPreview,
  UpdateSystemPromptRequest,
} from '../../../contract/system-prompts';
import { CLIENT_NOT_FOUND } from '../../../contract/oauth-configs-constants';
import { SYSTEM_PROMPT_NOT_FOUND } from '../../../contract/system-prompts-constants';
import type { Database } from '../../db/database';
import { findClientById } from '../../db/repositories/clients';
import {
  deactivateScope,
  deleteSystemPrompt,
  findEffectiveSystemPrompt,
  findSystemPrompt,
  insertSystemPrompt,
  listSystemPrompts,
  updateSystemPrompt,
  type SystemPromptChanges,
  type SystemPromptRecord,
} from '../../db/repositories/system-prompts';
import { inTransaction } from '../../db/transaction';
import { isUniqueViolation } from '../../db/unique-violation';
import { ConflictError, InvalidError, NotFoundError } from '../errors';
import { composeSystemPrompt } from './system-prompt';

// The superuser's system prompts (the routes allow the superuser only): named texts, one active for everyone and at
// most one active per client, which replaces everyone's for that client's people (system-prompt.ts composes it).

/** Another activation of the same scope won the race: the unique index keeps one active, this one is told to retry. */
export const ACTIVATION_RACED = 'Another system prompt was activated at the same time. Please try again.';

/** What the editor's preview calls the person (the real prompt names the person asking). */
export const PREVIEW_PERSON = 'the person asking';

function toView(row: SystemPromptRecord): SystemPrompt {
  return {
    id: row.id,
    name: row.name,
    content: row.content,
    client_id: row.client_id,
    is_active: row.is_active === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function existingClient(db: Kysely<Database>, clientId: string | null, asField: boolean): Promise<void> {
  if (clientId === null || (await findClientById(db, clientId))) return;
  throw asField ? new InvalidError(CLIENT_NOT_FOUND, { client_id: CLIENT_NOT_FOUND }) : new NotFoundError(CLIENT_NOT_FOUND);
}

async function existingPrompt(db: Kysely<Database>, id: string): Promise<SystemPromptRecord> {
  const row = await findSystemPrompt(db, id);
  if (!row) throw new NotFoundError(SYSTEM_PROMPT_NOT_FOUND);
  return row;
}

export async function listPrompts(db: Kysely<Database>): Promise<SystemPromptList> {
  return { prompts: (await listSystemPrompts(db)).map(toView) };
}

export async function readPrompt(db: Kysely<Database>, id: string): Promise<SystemPrompt> {
  return toView(await existingPrompt(db, id));
}

/** Created inactive: it reaches nobody until activated. */
export async function createPrompt(db: Kysely<Database>, input: CreateSystemPromptRequest & { client_id: string | null }): Promise<SystemPrompt> {
  await existingClient(db, input.client_id, true);
  return toView(await insertSystemPrompt(db, { name: input.name, content: input.content, client_id: input.client_id }));
}

/** A field left out keeps its value; moving an active prompt to another scope deactivates it (it would clash there). */
export async function updatePrompt(db: Kysely<Database>, id: string, input: UpdateSystemPromptRequest): Promise<SystemPrompt> {
  if (input.client_id !== undefined) await existingClient(db, input.client_id, true);
  return inTransaction(db, async (trx) => {
    const row = await existingPrompt(trx, id);
    const changes: SystemPromptChanges = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.content !== undefined) changes.content = input.content;
    if (input.client_id !== undefined && input.client_id !== row.client_id) {
      changes.client_id = input.client_id;
      changes.is_active = 0;
    }
    await updateSystemPrompt(trx, id, changes);
    return toView(await existingPrompt(trx, id));
  });
}

export async function removePrompt(db: Kysely<Database>, id: string): Promise<{ id: string }> {
  if (!(await deleteSystemPrompt(db, id))) throw new NotFoundError(SYSTEM_PROMPT_NOT_FOUND);
  return { id };
}

/** Makes the prompt the active one of its scope; the one active there before is deactivated in the same transaction. */
export async function activatePrompt(db: Kysely<Database>, id: string): Promise<SystemPrompt> {
  try {
    return await inTransaction(db, async (trx) => {
      const row = await existingPrompt(trx, id);
      if (row.is_active !== 1) {
        await deactivateScope(trx, row.client_id);
        await updateSystemPrompt(trx, id, { is_active: 1 });
      }
      return toView(await existingPrompt(trx, id));
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError(ACTIVATION_RACED);
    throw err;
  }
}

/** Its scope then has no prompt of its own: a client's people get everyone's again, everyone gets none. */
export async function deactivatePrompt(db: Kysely<Database>, id: string): Promise<SystemPrompt> {
  return inTransaction(db, async (trx) => {
    await existingPrompt(trx, id);
    await updateSystemPrompt(trx, id, { is_active: 0 });
    return toView(await existingPrompt(trx, id));
  });
}

/** The system prompt a person of `clientId` (of no client when undefined) gets now, composed as for a reply. */
export async function previewPrompt(db: Kysely<Database>, clientId: string | undefined, now = new Date()): Promise<SystemPromptPreview> {
  await existingClient(db, clientId ?? null, false);
  const user = { id: 'preview', name: PREVIEW_PERSON, client_id: clientId ?? null, department_id: null, unit_id: null };
  const [systemPrompt, active] = await Promise.all([composeSystemPrompt(db, { user, now }), findEffectiveSystemPrompt(db, clientId ?? null)]);
  return { system_prompt: systemPrompt, active_prompt_id: active?.id ?? null };
}
