import { z } from 'zod';
import {
  BROWSING_WITH_IMAGES,
  CONVERSATION_PAGE_SIZE,
  MESSAGE_EMPTY,
  MESSAGE_MAX_LENGTH,
  MESSAGE_TOO_LONG,
  SEARCH_MIN_CHARS,
  SEARCH_PAGE_SIZE,
  SEARCH_TOO_SHORT,
  TITLE_EMPTY,
  TITLE_MAX_LENGTH,
  TITLE_TOO_LONG,
} from './chat-constants';
import { choiceField, idField, pageField, pageSizeField, queryText, requestBody, switchField } from './fields';

export const reasoningEfforts = ['low', 'medium'] as const;
export const reasoningEffort = choiceField('reasoning_effort', reasoningEfforts);
export type ReasoningEffort = z.infer<typeof reasoningEffort>;

export const senders = ['user', 'Assistant'] as const;
/**
 * Rows written by the previous system say 'assistant': every reader (the server's responses, the SPA parsing them)
 * sees 'Assistant'. A codec rather than a transform, so the server's response serializer can encode it back.
 */
export const sender = z.codec(z.enum(['user', 'Assistant', 'assistant']), z.enum(senders), {
  decode: (value) => (value === 'assistant' ? 'Assistant' : value),
  encode: (value) => value,
});
export type Sender = z.infer<typeof sender>;

/** streaming: the reply is still being written (server-side, even with no client attached). */
export const messageStatus = z.enum(['complete', 'streaming', 'error']);
export type MessageStatus = z.infer<typeof messageStatus>;

export const conversation = z.object({
  id: z.string(),
  title: z.string(),
  created_at: z.string(),
  /** Last activity (a message sent or answered, a rename); the list is ordered by it, newest first. */
  updated_at: z.string(),
  /** Only on search hits: a short excerpt around the match, plain text. */
  matching_snippet: z.string().nullable().optional(),
});
export type Conversation = z.infer<typeof conversation>;

export const chatMessage = z.object({
  id: z.string(),
  conversation_id: z.string(),
  content: z.string(),
  sender,
  status: messageStatus,
  created_at: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessage>;

export const conversationListQuery = z.object({
  page: pageField(),
  page_size: pageSizeField(CONVERSATION_PAGE_SIZE),
  /** The spec lists it on this call too: the same as /search when given (3 characters or more). */
  search: queryText('search', 200).optional(),
});
export type ConversationListQuery = z.input<typeof conversationListQuery>;

export const conversationList = z.object({
  conversations: z.array(conversation),
  page: z.number().int(),
  page_size: z.number().int(),
  total: z.number().int(),
  total_pages: z.number().int(),
});
export type ConversationList = z.infer<typeof conversationList>;

export const conversationSearchQuery = z.object({
  query: z
    .string({ error: SEARCH_TOO_SHORT })
    .trim()
    .min(SEARCH_MIN_CHARS, SEARCH_TOO_SHORT)
    .max(200, 'Search text cannot be more than 200 characters'),
  page: pageField(),
  page_size: pageSizeField(SEARCH_PAGE_SIZE),
});
export type ConversationSearchQuery = z.input<typeof conversationSearchQuery>;

export const conversationSearchResult = z.object({
  conversations: z.array(conversation),
  page: z.number().int(),
  page_size: z.number().int(),
  total: z.number().int(),
});
export type ConversationSearchResult = z.infer<typeof conversationSearchResult>;

/** GET /chat/conversations/{id}/messages and .../messages/recent (oldest first). */
export const conversationMessages = z.object({
  conversation,
  messages: z.array(chatMessage),
});
export type ConversationMessages = z.infer<typeof conversationMessages>;

export const renameQuery = z.object({
  title: z.string({ error: TITLE_EMPTY }).trim().min(1, TITLE_EMPTY).max(TITLE_MAX_LENGTH, TITLE_TOO_LONG),
});
export type RenameQuery = z.input<typeof renameQuery>;

export const sendMessageRequest = requestBody({
  conversation_id: idField('conversation_id').nullable().default(null),
  message: z
    .string({ error: MESSAGE_EMPTY })
    .refine((m) => m.trim().length > 0, MESSAGE_EMPTY)
    .refine((m) => m.length <= MESSAGE_MAX_LENGTH, MESSAGE_TOO_LONG),
  sender: z.literal('user', { error: 'sender must be user' }).default('user'),
  browsing: switchField('browsing').default(false),
  image_generation: switchField('image_generation').default(false),
  message_id_to_edit: idField('message_id_to_edit').nullable().default(null),
  reasoning_effort: reasoningEffort.default('low'),
}).refine((body) => !(body.browsing && body.image_generation), { error: BROWSING_WITH_IMAGES, path: ['image_generation'] });
export type SendMessageRequest = z.input<typeof sendMessageRequest>;

// --- The stream (text/event-stream), ARCHITECTURE.md "Chat streaming protocol" ---

/** First `data:` record. message_id is the assistant message being written. */
export const streamControl = z.object({
  conversation_id: z.string(),
  message_id: z.string(),
  user_message_id: z.string(),
});
export type StreamControl = z.infer<typeof streamControl>;

export const streamErrorType = z.enum(['llm', 'max-tokens', 'unknown']);
export type StreamErrorType = z.infer<typeof streamErrorType>;

/** `event: error` */
export const streamError = z.object({ type: streamErrorType, message: z.string() });
export type StreamError = z.infer<typeof streamError>;

export const usage = z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int() });
export type Usage = z.infer<typeof usage>;

/** `event: done` */
export const streamDone = z.object({ message_id: z.string(), usage });
export type StreamDone = z.infer<typeof streamDone>;

