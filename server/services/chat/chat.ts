import type { Kysely } from 'kysely';
import { sender, type ChatMessage, type Conversation, type ConversationList, type ConversationMessages } from '../../../contract/chat';
import { decodeMessageCursor, encodeMessageCursor } from '../../../shared/message-cursor';
import { oneLineText } from '../../../shared/one-line-text';
import { RECENT_MESSAGES_LIMIT, SEARCH_MIN_CHARS } from '../../../contract/chat-constants';
import type { AppContext } from '../../context';
import type { Database } from '../../db/database';
import {
  deleteOwnConversation,
  listOwnConversations,
  renameOwnConversation,
  searchOwnConversations,
  type ConversationRecord,
} from '../../db/repositories/conversations';
import { conversationStorageKeys } from '../../db/repositories/documents';
import { readMessagePage } from '../../db/repositories/message-pages';
import type { MessageRecord } from '../../db/repositories/messages';
import { ratingsOf } from '../../db/repositories/reply-ratings';
import { withCarriedDocuments } from '../documents/documents-carried';
import { removeStoredFiles } from '../documents/documents-files';
import { CONVERSATION_NOT_FOUND, requireOwnConversation } from '../conversations/access';
import { NotFoundError } from '../errors';
import { neutraliseForeignMarkers } from './marker-safety';

export const MESSAGE_NOT_FOUND = 'Message not found';
export const CONVERSATION_DELETED = 'Conversation deleted successfully';
export const CONVERSATION_RENAMED = 'Conversation renamed successfully';

export function toConversation(record: ConversationRecord, snippet?: string): Conversation {
  return {
    id: record.id,
    title: record.title,
    created_at: record.created_at,
    updated_at: record.updated_at,
    ...(snippet !== undefined ? { matching_snippet: snippet } : {}),
  };
}

export function toChatMessage(record: MessageRecord): ChatMessage {
  return {
    id: record.id,
    conversation_id: record.conversation_id,
    content: record.content,
    // Through the contract's codec, the one place that maps an 'assistant' (data from elsewhere) to 'Assistant'.
    sender: sender.parse(record.sender),
    status: record.status,
    created_at: record.created_at,
    stopped: record.stopped_at !== null,
  };
}

/**
 * A message as a reader gets it. A finished reply was cleaned of foreign markers when it was saved; one still being
 * written, or ended by a crash, holds the model's text as it came, so it is cleaned here.
 */
function readableMessage(record: MessageRecord, publicUrl: string | undefined): ChatMessage {
  const message = toChatMessage(record);
  return message.sender === 'Assistant' && message.status !== 'complete'
    ? { ...message, content: neutraliseForeignMarkers(message.content, publicUrl) }
    : message;
}

export interface Paging {
  page: number;
  pageSize: number;
}

const windowOf = ({ page, pageSize }: Paging) => ({ limit: pageSize, offset: (page - 1) * pageSize });

export async function listConversations(db: Kysely<Database>, userId: string, paging: Paging): Promise<ConversationList> {
  const { rows, total } = await listOwnConversations(db, userId, windowOf(paging));
  return {
    conversations: rows.map((r) => toConversation(r)),
    page: paging.page,
    page_size: paging.pageSize,
    total,
    total_pages: Math.ceil(total / paging.pageSize),
  };
}

/**
 * GET /chat/conversations: the list, or a search when `search` has 3 characters or more (shorter text is a search
 * still being typed: the spec shows the normal list until then).
 */
export async function listOrSearchConversations(
  db: Kysely<Database>,
  userId: string,
  search: string | undefined,
  paging: Paging,
): Promise<ConversationList> {
  return search && search.length >= SEARCH_MIN_CHARS
    ? searchConversations(db, userId, search, paging)
    : listConversations(db, userId, paging);
}

/** Both search routes answer this; /search's contract simply has no total_pages. */
export async function searchConversations(
  db: Kysely<Database>,
  userId: string,
  query: string,
  paging: Paging,
): Promise<ConversationList> {
  const terms = searchTerms(query);
  const { rows, total } = await searchOwnConversations(db, userId, terms, windowOf(paging));
  return {
    conversations: rows.map((r) => toConversation(r, makeSnippet(r.hit_text ?? r.title, terms))),
    page: paging.page,
    page_size: paging.pageSize,
    total,
    total_pages: Math.ceil(total / paging.pageSize),
  };
}

/**
 * Characters after which a page stops taking older messages (it always holds one): a conversation of very long
 * messages is read and sent a few MB at a time, so reading it never holds the event loop for long.
 */
export const MESSAGE_PAGE_MAX_CHARS = 2_000_000;

/**
 * A page of a conversation: the latest `limit` messages, or those before `before` (a page's earlier_cursor),
 * oldest first, with the cursor of the page before it. .../messages/recent is the latest RECENT_MESSAGES_LIMIT.
 */
export async function conversationMessages(
  db: Kysely<Database>,
  userId: string,
  id: string,
  page: { before?: string; limit: number } | 'recent',
  /** PUBLIC_URL: whose file URLs are the server's own. */
  publicUrl?: string,
): Promise<ConversationMessages> {
  const conversation = await requireOwnConversation(db, userId, id);
  const { before, limit } = page === 'recent' ? { before: undefined, limit: RECENT_MESSAGES_LIMIT } : page;
  // The route's schema has refused any cursor that does not decode.
  const start = before === undefined ? undefined : (decodeMessageCursor(before) ?? undefined);
  const { rows, hasEarlier } = await readMessagePage(db, id, { before: start, limit, maxChars: MESSAGE_PAGE_MAX_CHARS });
  const oldest = rows[0];
  const ratings = await ratingsOf(db, userId, rows.filter((row) => row.sender !== 'user').map((row) => row.id));
  return {
    conversation: toConversation(conversation),
    messages: await withCarriedDocuments(db, rows.map((row) => ({ ...readableMessage(row, publicUrl), rating: ratings.get(row.id) ?? null }))),
    earlier_cursor: hasEarlier && oldest ? encodeMessageCursor({ seq: oldest.seq, createdAt: oldest.created_at }) : null,
  };
}

export async function renameConversation(db: Kysely<Database>, userId: string, id: string, title: string): Promise<Conversation> {
  const renamed = await renameOwnConversation(db, userId, id, title);
  if (!renamed) throw new NotFoundError(CONVERSATION_NOT_FOUND);
  return toConversation(renamed);
}

/**
 * Messages and documents (with their passages) go with it (foreign key cascade); the usage ledger keeps its rows.
 * The documents' stored files are removed after their rows, so no row ever points at a missing file.
 */
export async function deleteConversation(
  ctx: Pick<AppContext, 'db' | 'files' | 'log'>,
  userId: string,
  id: string,
): Promise<void> {
  const storageKeys = await conversationStorageKeys(ctx.db, userId, id);
  if (!(await deleteOwnConversation(ctx.db, userId, id))) throw new NotFoundError(CONVERSATION_NOT_FOUND);
  await removeStoredFiles(ctx, storageKeys);
}

const MAX_TERMS = 8;

/**
 * The words of a search, lower-cased: letters and digits only, so nothing the user types can reach the
 * FTS5 or tsquery syntax. Each is matched as a word prefix, all of them must match.
 */
export function searchTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_TERMS);
}

const SNIPPET_CHARS = 160;
/** Context kept before the first match. */
const SNIPPET_LEAD = 50;

/** A short plain-text excerpt of `text` around the first word starting with one of `terms`. */
export function makeSnippet(text: string, terms: string[]): string {
  const plain = oneLineText(text);
  let at = -1;
  for (const term of terms) {
    const found = plain.search(new RegExp(`(?<![\\p{L}\\p{N}])${term}`, 'iu'));
    if (found >= 0 && (at < 0 || found < at)) at = found;
  }
  if (plain.length <= SNIPPET_CHARS) return plain;
  let start = Math.max(0, at - SNIPPET_LEAD);
  if (start > 0) {
    const space = plain.indexOf(' ', start);
    if (space >= 0 && space < at) start = space + 1;
  }
  let end = Math.min(plain.length, start + SNIPPET_CHARS);
  if (end < plain.length) {
    const space = plain.lastIndexOf(' ', end);
    if (space > Math.max(start, at)) end = space;
  }
  return `${start > 0 ? '…' : ''}${plain.slice(start, end)}${end < plain.length ? '…' : ''}`;
}

/** Content without its error markers: what the model said, for the history sent with the next question. */
export function withoutErrorMarkers(content: string): string {
  return content.replace(/\n*:::error\{[^}\n]*\}\n[\s\S]*?\n:::/g, '').trim();
}
