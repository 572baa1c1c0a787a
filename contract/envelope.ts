import { z } from 'zod';

/** Every successful API response: `{ status: "success", data, message? }`. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal('success'), data, message: z.string().optional() });
}

/**
 * Every failed API response. `detail` is the sentence a screen shows; `fields` maps an invalid input's path
 * (e.g. `page_size`, `items.0.name`) to its sentence; `code` names a case a screen handles specially
 * (e.g. `subscription_expired`, `conversation_busy`).
 */
export const errorEnvelope = z.object({
  status: z.literal('error'),
  detail: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  code: z.string().optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

export const messageOnly = z.object({ message: z.string() });
export type MessageOnly = z.infer<typeof messageOnly>;

/** Page fields shared by paginated lists. */
export const pageFields = {
  page: z.number().int().min(1),
  page_size: z.number().int().min(1),
  total: z.number().int().min(0),
  total_pages: z.number().int().min(0),
};
