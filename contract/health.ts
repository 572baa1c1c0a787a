import { z } from 'zod';

/** GET /health: 200 only when the database answers too. */
export const health = z.object({ status: z.literal('ok') });
export type Health = z.infer<typeof health>;

/**
 * GET /health/ready: 200 when this instance can serve: the database answers, and Redis when one is configured
 * (REDIS_URL); 503 naming what does not answer.
 */
export const readiness = z.object({
  status: z.literal('ok'),
  database: z.literal('ok'),
  redis: z.enum(['ok', 'not_configured']),
});
export type Readiness = z.infer<typeof readiness>;
