import type { z } from 'zod';
import { HttpError } from './errors';

/**
 * Parses input with a contract schema. On failure: 400, `detail` = the first issue's message
 * (e.g. 'Email is required'), `fields` = path -> first message for that path.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    fields[key] ??= issue.message;
  }
  throw new HttpError(400, result.error.issues[0]?.message ?? 'Invalid request', { fields });
}

/** A missing body is validated as `{}` so each required field reports its own message. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  return parseInput(schema, body ?? {});
}
