import { z } from 'zod';
import { idField, requestBody, requiredText } from './fields';
import {
  SYSTEM_PROMPT_CONTENT_REQUIRED,
  SYSTEM_PROMPT_CONTENT_TOO_LONG,
  SYSTEM_PROMPT_MAX_CHARS,
  SYSTEM_PROMPT_NAME_MAX_LENGTH,
  SYSTEM_PROMPT_NAME_REQUIRED,
  SYSTEM_PROMPT_NAME_TOO_LONG,
} from './system-prompts-constants';

// The superuser's system prompts: one active for everyone (client_id null) and at most one active per client, which
// replaces it for that client's people. The active one joins every reply's system prompt after the base prompt and
// before the organisation's global policy.

export const systemPrompt = z.object({
  id: z.string(),
  name: z.string(),
  content: z.string(),
  client_id: z.string().nullable().describe("null: for everyone; else only for that client's people, replacing everyone's."),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SystemPrompt = z.infer<typeof systemPrompt>;

export const systemPromptList = z.object({ prompts: z.array(systemPrompt) });
export type SystemPromptList = z.infer<typeof systemPromptList>;

const name = z
  .string(requiredText(SYSTEM_PROMPT_NAME_REQUIRED, 'name must be text'))
  .trim()
  .min(1, SYSTEM_PROMPT_NAME_REQUIRED)
  .max(SYSTEM_PROMPT_NAME_MAX_LENGTH, SYSTEM_PROMPT_NAME_TOO_LONG);

const content = z
  .string(requiredText(SYSTEM_PROMPT_CONTENT_REQUIRED, 'content must be text'))
  .trim()
  .min(1, SYSTEM_PROMPT_CONTENT_REQUIRED)
  .max(SYSTEM_PROMPT_MAX_CHARS, SYSTEM_PROMPT_CONTENT_TOO_LONG);

const clientId = z
  .union([idField('client_id'), z.null()], { error: 'client_id must be an id or null' })
  .describe("null (or left out): for everyone; a client's id: for that client's people only.");

/** POST /system-prompts/: created inactive. */
export const createSystemPromptRequest = requestBody({ name, content, client_id: clientId.optional().transform((v) => v ?? null) });
export type CreateSystemPromptRequest = z.input<typeof createSystemPromptRequest>;

/** PUT /system-prompts/{id}: a field left out keeps its value. Changing the client of an active prompt deactivates it. */
export const updateSystemPromptRequest = requestBody({ name: name.optional(), content: content.optional(), client_id: clientId.optional() });
export type UpdateSystemPromptRequest = z.input<typeof updateSystemPromptRequest>;

/** GET /system-prompts/preview: the composed prompt as a person of `client_id` (everyone's when absent) gets it. */
export const systemPromptPreviewQuery = z.object({
  client_id: idField('client_id').optional().describe('Whose people to compose for; a person of no client when absent.'),
});
export const systemPromptPreview = z.object({
  system_prompt: z.string(),
  /** The prompt of the superuser's that is in it, if any. */
  active_prompt_id: z.string().nullable(),
});
export type SystemPromptPreview = z.infer<typeof systemPromptPreview>;

export const deletedSystemPrompt = z.object({ id: z.string() });
