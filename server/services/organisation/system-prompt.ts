import type { Kysely } from 'kysely';
import type { Database } from '../../db/database';
import { findPolicyPrompt } from '../../db/repositories/global-policy';
import { findEffectiveSystemPrompt } from '../../db/repositories/system-prompts';
import type { UserRecord } from '../../db/repositories/users';

export interface SystemPromptInput {
  user: Pick<UserRecord, 'id' | 'name' | 'client_id' | 'department_id' | 'unit_id'>;
  now: Date;
}

/** One part of the system prompt, or undefined to add nothing. */
export type SystemPromptSource = (db: Kysely<Database>, input: SystemPromptInput) => Promise<string | undefined> | string | undefined;

/** Made once: toLocaleDateString with options builds a new formatter on every call (about a millisecond). */
const DAY_FORMAT = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

const basePrompt: SystemPromptSource = (_db, { user, now }) => {
  const today = DAY_FORMAT.format(now);
  return [
    "You are Tanya, the AI assistant of the user's organisation.",
    'Answer helpfully, accurately and concisely, in the language of the question.',
    'Use Markdown (lists, tables, fenced code blocks with a language) where it makes the answer clearer.',
    'When you are not sure, say so instead of guessing.',
    `Today is ${today} (UTC).`,
    `You are talking with ${user.name.replace(/\s+/g, ' ').trim()}.`,
  ].join('\n');
};

/**
 * The superuser's system prompt (system-prompts.ts): the client's active one, else everyone's active one. After the
 * basics, which it may refine, and before the organisation's policy, which has the last word for its people.
 */
const superuserPrompt: SystemPromptSource = async (db, { user }) => (await findEffectiveSystemPrompt(db, user.client_id))?.content;

/** The organisation's global policy (set by its admin): it binds every answer, so it comes after the basics. */
const organisationPolicy: SystemPromptSource = async (db, { user }) => {
  if (!user.client_id) return undefined;
  const policy = await findPolicyPrompt(db, user.client_id);
  return policy ? `Your organisation's policy, which every answer must follow:\n${policy}` : undefined;
};

/** In order; each non-empty part becomes a paragraph of the prompt. */
const SOURCES: readonly SystemPromptSource[] = [basePrompt, superuserPrompt, organisationPolicy];

/** The system prompt of every reply: composed here and nowhere else. */
export async function composeSystemPrompt(
  db: Kysely<Database>,
  input: SystemPromptInput,
  sources: readonly SystemPromptSource[] = SOURCES,
): Promise<string> {
  const parts = await Promise.all(sources.map((source) => source(db, input)));
  return parts
    .map((p) => p?.trim())
    .filter((p): p is string => !!p)
    .join('\n\n');
}
