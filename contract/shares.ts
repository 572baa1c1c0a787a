import { z } from 'zod';
import { sender } from './chat';
import { pageFields } from './envelope';
import { idField, pageField, pageSizeField } from './fields';

export const SHARE_NOT_FOUND = 'Shared conversation not found';
/** DELETE /shares/{shareId}: the link no longer opens anything. */
export const SHARING_STOPPED = 'Sharing stopped';
/** The owner's list of shared links: 10 a page, like the product's other lists. */
export const SHARE_PAGE_SIZE = 10;

/**
 * POST /shares/conversations/{id}: the SPA's /share/{shareId} page as an absolute URL under PUBLIC_URL (never the
 * request's Host), and the share's id (what DELETE /shares/{shareId} takes).
 */
export const shareLink = z.object({ share_url: z.string(), share_id: z.string() });
export type ShareLink = z.infer<typeof shareLink>;

export const shareListQuery = z.object({ page: pageField(), page_size: pageSizeField(SHARE_PAGE_SIZE) });
export type ShareListQuery = z.input<typeof shareListQuery>;

/** One of my shared links: which conversation (its title when last shared), the link, when it was first shared. */
export const shareSummary = z.object({
  id: z.string(),
  conversation_id: z.string(),
  title: z.string(),
  share_url: z.string(),
  created_at: z.string(),
  /** When the snapshot was last brought up to date (sharing again refreshes it). */
  snapshot_at: z.string(),
});
export type ShareSummary = z.infer<typeof shareSummary>;

/** GET /shares/: my shared links, newest first. */
export const shareList = z.object({ shares: z.array(shareSummary), ...pageFields });
export type ShareList = z.infer<typeof shareList>;

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
