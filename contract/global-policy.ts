import { z } from 'zod';
import { requestBody } from './fields';
import { POLICY_MAX_CHARS, POLICY_MAX_WORDS, POLICY_TOO_LONG, POLICY_TOO_MANY_CHARS } from './global-policy-constants';
import { countWords } from '../shared/word-count';

/** GET and PUT /global-policy/: the organisation's policy prompt, null when it has none. */
export const globalPolicy = z.object({ policy_prompt: z.string().nullable() });
export type GlobalPolicy = z.infer<typeof globalPolicy>;

/** PUT /global-policy/: trimmed, empty stored as null, at most POLICY_MAX_WORDS words (split on whitespace). */
export const globalPolicyRequest = requestBody({
  policy_prompt: z
    .string({ error: 'policy_prompt must be text or null' })
    .trim()
    .max(POLICY_MAX_CHARS, POLICY_TOO_MANY_CHARS)
    .refine((text) => countWords(text) <= POLICY_MAX_WORDS, { error: POLICY_TOO_LONG })
    .transform((text) => text || null)
    .nullable()
    .describe(`At most ${POLICY_MAX_WORDS} words, counted by splitting on whitespace; trimmed; empty or null removes the policy.`),
});
export type GlobalPolicyRequest = z.input<typeof globalPolicyRequest>;
