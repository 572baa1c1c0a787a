import { z } from 'zod';

/** GET: the whole conversation as a Markdown download (under the API prefix; kept beside its query, not in api-paths.ts). */
export const CONVERSATION_EXPORT_PATH = '/chat/conversations/:id/export.md';

/** The file name when a title leaves nothing usable (all punctuation, say). */
export const EXPORT_FALLBACK_NAME = 'conversation.md';
export const EXPORT_FAILED = 'Failed to export conversation';
export const TIME_ZONE_INVALID = 'time_zone must be a time zone name such as Asia/Kuala_Lumpur';

/**
 * `?time_zone=`: the reader's IANA time zone (the browser's), so the times in the file are the ones they saw on
 * screen; UTC when absent. The server checks that the name exists.
 */
export const conversationExportQuery = z.object({
  time_zone: z.string({ error: TIME_ZONE_INVALID }).min(1, { error: TIME_ZONE_INVALID }).max(64, { error: TIME_ZONE_INVALID }).optional(),
});
export type ConversationExportQuery = z.input<typeof conversationExportQuery>;
