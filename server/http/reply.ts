import type { z } from 'zod';

/**
 * The success envelope. `data` goes through its contract schema, which strips every key the contract
 * does not name: a stray column such as password_hash can never reach a response.
 */
export function ok<S extends z.ZodType>(schema: S, data: z.input<S>, message?: string) {
  return { status: 'success' as const, data: schema.parse(data) as z.output<S>, ...(message ? { message } : {}) };
}
