import { z } from 'zod';
import { normaliseTags } from '../shared/tags';

// Field builders shared by the request schemas, each with a sentence a person can act on (never zod's wording).
// Query values arrive as text, so numbers are coerced.

export const PAGE_SIZE_MAX = 100;

/** A whole number from `min` to `max` read from the query string, with one sentence for every way it can be wrong. */
export function wholeNumberQuery(message: string, min: number, max: number) {
  return z.coerce.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
}

/** `?page=`: 1 when absent. */
export const pageField = () =>
  wholeNumberQuery('page must be a whole number of 1 or more', 1, 100_000).default(1);

/** `?page_size=`: `byDefault` when absent, at most 100. */
export const pageSizeField = (byDefault: number) =>
  wholeNumberQuery(`page_size must be a whole number from 1 to ${PAGE_SIZE_MAX}`, 1, PAGE_SIZE_MAX).default(byDefault);

/** `?limit=`, the page size of the lists whose spec calls it so (tips, prompts): `byDefault` when absent, at most 100. */
export const limitField = (byDefault: number) =>
  wholeNumberQuery(`limit must be a whole number from 1 to ${PAGE_SIZE_MAX}`, 1, PAGE_SIZE_MAX).default(byDefault);

/**
 * The error of a required text field: its own sentence when the value is absent (or null), another when something
 * else than text was sent, so a value that was sent is never reported as missing.
 */
export const requiredText = (missing: string, notText: string) => ({
  error: (issue: { input?: unknown }) => (issue.input == null ? missing : notText),
});

/**
 * The longest id accepted anywhere (path, query or body). Ids are UUIDs (36 characters), share ids and file keys 43;
 * a longer one cannot exist, and is refused before it reaches the router's limits or a database index.
 */
export const ID_MAX_LENGTH = 100;

/** An id in a path, a query or a body: 400 with the field's own sentence when empty, not text or too long. */
export const idField = (name: string) =>
  z
    .string({ error: `${name} must be an id` })
    .min(1, { error: `${name} must be an id` })
    .max(ID_MAX_LENGTH, { error: `${name} must be an id of at most ${ID_MAX_LENGTH} characters` });

/** `{ id }` path parameters. */
export const idParams = z.object({ id: idField('id') });

/** A JSON true/false switch. */
export const switchField = (name: string) => z.boolean({ error: `${name} must be true or false` });

/** One of a few words; the message lists them. */
export function choiceField<const T extends readonly [string, ...string[]]>(name: string, values: T) {
  const list = values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(', ')}`;
  return z.enum(values, { error: `${name} must be ${list}` });
}

/** Optional free text in a query (search boxes), trimmed. */
export const queryText = (name: string, max: number) =>
  z.string({ error: `${name} must be text` }).trim().max(max, { error: `${name} cannot be more than ${max} characters` });

/** `?tags=a,b`: comma-separated tags, normalised like stored ones (shared/tags.ts); an empty list filters nothing. */
export const tagsQuery = () =>
  queryText('tags', 1000)
    .transform((text) => normaliseTags([text]))
    .optional()
    .describe('Comma-separated; matches an entry with any of them, case-insensitively.');

/** A JSON request body: an object (a missing body is read as `{}`, so each required field names itself). */
export const requestBody = <T extends z.ZodRawShape>(shape: T) =>
  z.object(shape, { error: 'The request body must be a JSON object' });
