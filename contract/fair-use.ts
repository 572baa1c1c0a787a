import { z } from 'zod';

/**
 * An organisation's fair use this UTC calendar month: allowance = subscription fair_use x max_users x 1,000,000
 * tokens; used = the organisation's prompt and completion tokens in the usage log since the 1st. At 100% new
 * questions are refused (429 `fair_use_exceeded`).
 */
export const fairUse = z.object({
  used_tokens: z.number().int().min(0),
  allowance_tokens: z.number().int().min(0),
  percent: z.number().min(0).describe('used / allowance x 100, one decimal, rounded down; may pass 100.'),
});
export type FairUse = z.infer<typeof fairUse>;
