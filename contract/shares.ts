import { z } from 'zod';
import { sender } from './chat';
import { idField } from './fields';

export const SHARE_NOT_FOUND = 'Shared conversation not found';

/** POST /shares/conversations/{id}: the SPA's /share/{shareId} page, as an absolute URL. */
export const shareLink = z.object({ share_url: z.string() });
export type ShareLink = z.infer<typeof shareLink>;

export const shareParams = z.object({ shareId: idField('shareId') });

export const sharedMessage = z.object({
  id: z.string(),
  content: z.string(),
  sender,
  created_at: z.string(),
});
export type SharedMessage = z.infer<typeof sharedMessage>;

/** GET /shares/{shareId}: the conversation as it was when the link was last asked for, oldest message first. */
export const sharedConversation = z.object({
  conversation: z.object({ id: z.string(), title: z.string(), created_at: z.string() }),
  messages: z.array(sharedMessage),
});
export type SharedConversation = z.infer<typeof sharedConversation>;
