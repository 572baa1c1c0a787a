import { z } from 'zod';
import { fairUse } from './fair-use';

/** GET /quotas/client/{id}: seats and fair use of the subscription in force (null fields: none in force). */
export const clientQuota = z.object({
  client_id: z.string(),
  max_users: z.number().int().nullable(),
  active_users: z.number().int().min(0).describe('Active people (verified or not: each holds a seat).'),
  fair_use: z.number().int().nullable().describe('Millions of tokens per seat per calendar month (see the README).'),
  fair_use_usage: fairUse.nullable().describe("This UTC calendar month's use of the allowance (fair_use x max_users x 1,000,000 tokens)."),
});
export type ClientQuota = z.infer<typeof clientQuota>;
