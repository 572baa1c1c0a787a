import { z } from 'zod';

/** GET /health: 200 only when the database answers too. */
export const health = z.object({ status: z.literal('ok') });
export type Health = z.infer<typeof health>;
