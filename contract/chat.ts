import { z } from 'zod';
import { decodeMessageCursor } from '../shared/message-cursor';
import { MAX_DOCUMENTS_PER_MESSAGE } from './documents-constants';
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
import { choiceField, idField, PAGE_SIZE_MAX, pageField, pageSizeField, queryText, requestBody, requiredText, switchField, wholeNumberQuery } from './fields';

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

/** A file a question carried (sent in its document_ids): what the chip under the question shows. */
export const messageDocument = z.object({
  id: z.string(),
  filename: z.string(),
  /** The MIME type the server found by content. */
  type: z.string(),
  size: z.number().int(),
});
export type MessageDocument = z.infer<typeof messageDocument>;

export const chatMessage = z.object({
  id: z.string(),
  conversation_id: z.string(),
  content: z.string(),
  sender,
  status: messageStatus,
  created_at: z.string(),
  /** The person stopped this reply while it was written: its content is the text up to then (status 'complete'). */
  stopped: z.boolean(),
  /** The person's thumbs up or down on this reply (PUT /chat/messages/{id}/rating); absent or null: none. */
  rating: z.enum(['up', 'down']).nullable().optional(),
  /** A question's files, in the order they were attached; absent when it carried none. */
  documents: z.array(messageDocument).optional(),
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

/** Messages per page of GET /chat/conversations/{id}/messages when `limit` is not given. */
export const MESSAGE_PAGE_SIZE = 50;
export const MESSAGE_CURSOR_INVALID = 'before must be the earlier_cursor of a page of messages';


/** GET /chat/conversations/{id}/messages: `before` a page's earlier_cursor, `limit` messages at most. */
export const messagePageQuery = z.object({
  before: z
    .string({ error: MESSAGE_CURSOR_INVALID })
    .refine((text) => decodeMessageCursor(text) !== null, { error: MESSAGE_CURSOR_INVALID })
    .optional()
    .describe('The `earlier_cursor` of the page before which to read; the latest messages when absent.'),
  limit: wholeNumberQuery(`limit must be a whole number from 1 to ${PAGE_SIZE_MAX}`, 1, PAGE_SIZE_MAX)
    .default(MESSAGE_PAGE_SIZE)
    .describe('Messages on the page at most (fewer when they are very long).'),
});
export type MessagePageQuery = z.input<typeof messagePageQuery>;

/**
 * GET /chat/conversations/{id}/messages (a page: the latest messages, or those before `before`) and
 * .../messages/recent (the latest 20), oldest first.
 */
export const conversationMessages = z.object({
  conversation,
  messages: z.array(chatMessage),
  earlier_cursor: z
    .string()
    .nullable()
    .describe('Pass it as `before` for the messages just before this page; null when the page starts with the first message.'),
});
export type ConversationMessages = z.infer<typeof conversationMessages>;

export const renameQuery = z.object({
  title: z.string(requiredText(TITLE_EMPTY, 'Conversation title must be one piece of text')).trim().min(1, TITLE_EMPTY).max(TITLE_MAX_LENGTH, TITLE_TOO_LONG),
});
export type RenameQuery = z.input<typeof renameQuery>;

export const sendMessageRequest = requestBody({
  conversation_id: idField('conversation_id').nullable().default(null),
  message: z
    .string(requiredText(MESSAGE_EMPTY, 'Message must be text'))
    .refine((m) => m.trim().length > 0, MESSAGE_EMPTY)
    .refine((m) => m.length <= MESSAGE_MAX_LENGTH, MESSAGE_TOO_LONG),
  sender: z.literal('user', { error: 'sender must be user' }).default('user'),
  browsing: switchField('browsing').default(false),
  image_generation: switchField('image_generation').default(false),
  message_id_to_edit: idField('message_id_to_edit').nullable().default(null),
  reasoning_effort: reasoningEffort.default('low'),
  /**
   * The files listed in the input box, sent with this question (its `documents` in the message pages). On the
   * new-chat screen (uploaded with POST /documents/, no conversation yet) they join the conversation this message
   * creates; in a conversation, its own uploads. Ids not the sender's, or carried by another question, are passed over.
   */
  document_ids: z
    .array(idField('document_ids'), { error: 'document_ids must be a list of document ids' })
    .max(MAX_DOCUMENTS_PER_MESSAGE, { error: `A message can bring at most ${MAX_DOCUMENTS_PER_MESSAGE} documents` })
    .default([]),
}).refine((body) => !(body.browsing && body.image_generation), { error: BROWSING_WITH_IMAGES, path: ['image_generation'] });
export type SendMessageRequest = z.input<typeof sendMessageRequest>;

// The stream's records (text/event-stream, ARCHITECTURE.md "Chat streaming protocol") are in ./chat-stream.ts.

/** POST /chat/messages/{id}/stop: `stopped` false when the reply had already ended (nothing to stop). */
export const replyStopResult = z.object({ message_id: z.string(), stopped: z.boolean() });
export type ReplyStopResult = z.infer<typeof replyStopResult>;
