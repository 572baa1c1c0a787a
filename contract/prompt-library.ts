import { z } from 'zod';
import { limitField, pageField, queryText, requestBody, requiredText, tagsQuery } from './fields';
import {
  PROMPT_MAX_LENGTH,
  PROMPT_MAX_TAGS,
  PROMPT_PAGE_SIZE,
  PROMPT_REQUIRED,
  PROMPT_TOO_LONG,
  TAG_MAX_LENGTH,
  TAG_REQUIRED,
  TAG_TOO_LONG,
  TOO_MANY_TAGS,
} from './prompt-library-constants';
import { normaliseTags } from '../shared/tags';

export const promptEntry = z.object({
  id: z.string(),
  prompt: z.string(),
  /** In the order they were given, each once (case-insensitively), none empty. */
  tags: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PromptEntry = z.infer<typeof promptEntry>;

/** The limits apply to the tags as they will be stored: after splitting, trimming and removing repeats. */
const promptTags = z
  .array(z.string({ error: 'Each tag must be text' }), requiredText(TAG_REQUIRED, 'tags must be a list of text'))
  .transform((tags) => normaliseTags(tags))
  .pipe(z.array(z.string().max(TAG_MAX_LENGTH, TAG_TOO_LONG)).min(1, TAG_REQUIRED).max(PROMPT_MAX_TAGS, TOO_MANY_TAGS));

/** POST (save) and PUT (edit, replacing both fields) of /prompt-libraries/. */
export const promptRequest = requestBody({
  prompt: z.string(requiredText(PROMPT_REQUIRED, 'Prompt must be text')).trim().min(1, PROMPT_REQUIRED).max(PROMPT_MAX_LENGTH, PROMPT_TOO_LONG),
  tags: promptTags.describe('Each item may itself be comma separated, as typed; trimmed, empties dropped, repeats (any case) kept once.'),
});
export type PromptRequest = z.input<typeof promptRequest>;

export const promptListQuery = z.object({
  page: pageField(),
  limit: limitField(PROMPT_PAGE_SIZE),
  tags: tagsQuery(),
  search: queryText('search', 200).optional().describe('Case-insensitive text found in the prompt or in one of its tags.'),
});
export type PromptListQuery = z.input<typeof promptListQuery>;

/** The spec's shape: the entries under `data`, with page, total_pages and total beside them. */
export const promptList = z.object({
  data: z.array(promptEntry),
  page: z.number().int(),
  total_pages: z.number().int(),
  total: z.number().int(),
});
export type PromptList = z.infer<typeof promptList>;
