import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { sendMessageRequest } from '../../../contract/chat';
import { CONVERSATION_BUSY, DEFAULT_CONVERSATION_TITLE } from '../../../contract/chat-constants';
import { errorMarker } from '../../../shared/markers';
import type { AppContext } from '../../context';
import type { Database } from '../../db/database';
import {
  findOwnConversationWithLease,
  insertConversation,
  takeAnsweringLease,
  touchConversation,
  type ConversationRecord,
} from '../../db/repositories/conversations';
import { attachDocumentsToConversation } from '../../db/repositories/documents';
import { markCarriedDocuments } from '../../db/repositories/message-documents';
import {
  deleteMessagesAfter,
  findOwnUserMessage,
  insertMessage,
  listHistory,
  markInterruptedReplies,
  updateMessage,
  type MessageRecord,
} from '../../db/repositories/messages';
import type { UserRecord } from '../../db/repositories/users';
import { isoFromNow, isoNow } from '../../db/timestamps';
import { inTransaction } from '../../db/transaction';
import { MESSAGE_NOT_FOUND } from './chat';
import { CONVERSATION_NOT_FOUND } from '../conversations/access';
import { ConflictError, NotFoundError } from '../errors';
import { LEASE_MS, newLeaseOwner, REPLY_INTERRUPTED } from './reply-leases';

/** Earlier messages read for the history; the token budget (LLM_HISTORY_TOKENS) usually stops sooner. */
const HISTORY_MAX_MESSAGES = 200;
/**
 * Characters of history read per token of LLM_HISTORY_TOKENS. Text runs at about 4 characters a token; half as
 * much again leaves room for text that packs more into a token, so the read never stops short of what the token
 * budget would take. The budget itself is applied to what was read (buildPrompt); this keeps the read from taking
 * texts that could never fit.
 */
export const HISTORY_CHARS_PER_TOKEN = 6;

export type SendMessage = z.output<typeof sendMessageRequest>;

/**
 * What a send reads before it writes anything: enough to refuse it and to ask the model, so the model is asked
 * before the exchange is saved (saving then overlaps the model's own time to first token).
 */
export interface ExchangePlan {
  /** null: a new conversation. */
  conversation: ConversationRecord | null;
  /** The user's message being edited (later messages go), or null for a new question. */
  edited: MessageRecord | null;
  /**
   * The messages before the question that the model may be shown, oldest first: at most HISTORY_MAX_MESSAGES of the
   * newest, as many as fit HISTORY_CHARS_PER_TOKEN characters per token of the history budget.
   */
  history: MessageRecord[];
  /** The conversation has documents (files attached, images made): only then does retrieval look at them. */
  hasDocuments: boolean;
}

/** The rows a send has written before its reply is written. */
export interface Exchange {
  conversation: ConversationRecord;
  userMessage: MessageRecord;
  /** The assistant's message, 'streaming' and empty until the reply is written into it. */
  reply: MessageRecord;
  /** The answering lease's owner string (unique per lease), which renewing and releasing it require. */
  lease: string;
}

/**
 * Every refusal of a send to an existing conversation (404 conversation, 409 still answering, 404 message to
 * edit) comes from here, read-only. The lease is checked again when it is taken (saveExchange): this early look
 * keeps a busy conversation from costing a model call that would only be cancelled.
 */
export async function planExchange(
  db: Kysely<Database>,
  user: UserRecord,
  request: SendMessage,
  /** LLM_HISTORY_TOKENS. */
  historyTokens: number,
): Promise<ExchangePlan> {
  if (request.conversation_id === null) {
    if (request.message_id_to_edit !== null) throw new NotFoundError(MESSAGE_NOT_FOUND);
    return { conversation: null, edited: null, history: [], hasDocuments: false };
  }
  const found = await findOwnConversationWithLease(db, user.id, request.conversation_id);
  if (!found) throw new NotFoundError(CONVERSATION_NOT_FOUND);
  const { answering_until: answeringUntil, has_documents: hasDocuments, ...conversation } = found;
  if (answeringUntil !== null && answeringUntil >= isoNow()) throw new ConflictError(CONVERSATION_BUSY, 'conversation_busy');
  let edited: MessageRecord | null = null;
  if (request.message_id_to_edit !== null) {
    edited = (await findOwnUserMessage(db, user.id, conversation.id, request.message_id_to_edit)) ?? null;
    if (!edited) throw new NotFoundError(MESSAGE_NOT_FOUND);
  }
  const history = await listHistory(db, conversation.id, {
    limit: HISTORY_MAX_MESSAGES,
    maxChars: historyTokens * HISTORY_CHARS_PER_TOKEN,
    beforeSeq: edited?.seq,
  });
  return { conversation, edited, history, hasDocuments };
}

/**
 * Takes the conversation's answering lease and saves the user's message (new or edited, later messages
 * dropped) and an empty reply, in one transaction. Refuses (409, 404) what changed since planExchange looked.
 */
export async function saveExchange(ctx: AppContext, user: UserRecord, request: SendMessage, plan: ExchangePlan): Promise<Exchange> {
  const lease = { until: isoFromNow(LEASE_MS), owner: newLeaseOwner() };
  const { conversation, edited } = plan;
  if (conversation === null) {
    return inTransaction(ctx.db, async (trx) => {
      const created = await insertConversation(trx, {
        user_id: user.id,
        client_id: user.client_id,
        title: DEFAULT_CONVERSATION_TITLE,
        answering_until: lease.until,
        answering_owner: lease.owner,
      });
      // Files attached on the new-chat screen join the conversation; ids not the user's, or attached already, are passed over.
      await attachDocumentsToConversation(trx, user.id, request.document_ids, created.id);
      const userMessage = await insertUserMessage(trx, created.id, user.id, request.message);
      await markCarriedDocuments(trx, { userId: user.id, conversationId: created.id, messageId: userMessage.id, documentIds: request.document_ids });
      return { conversation: created, userMessage, reply: await insertReply(trx, created.id, user.id), lease: lease.owner };
    });
  }

  // The lease is taken in the same transaction as the writes (one commit, and a refused edit leaves it free).
  return inTransaction(ctx.db, async (trx) => {
    if (!(await takeAnsweringLease(trx, user.id, conversation.id, new Date().toISOString(), lease))) {
      throw new ConflictError(CONVERSATION_BUSY, 'conversation_busy');
    }
    // The lease was free, so a reply still marked 'streaming' belongs to an instance that died mid-way.
    await markInterruptedReplies(trx, conversation.id, errorMarker('llm', REPLY_INTERRUPTED));
    let userMessage: MessageRecord;
    if (edited) {
      // Read again under the lease: an edit that went in meanwhile may have removed it.
      if (!(await findOwnUserMessage(trx, user.id, conversation.id, edited.id))) throw new NotFoundError(MESSAGE_NOT_FOUND);
      await updateMessage(trx, edited.id, { content: request.message });
      await deleteMessagesAfter(trx, conversation.id, edited.seq);
      userMessage = { ...edited, content: request.message };
    } else {
      userMessage = await insertUserMessage(trx, conversation.id, user.id, request.message);
    }
    // The files listed in the input box went up into this conversation already; the question carries them.
    await markCarriedDocuments(trx, { userId: user.id, conversationId: conversation.id, messageId: userMessage.id, documentIds: request.document_ids });
    const reply = await insertReply(trx, conversation.id, user.id);
    await touchConversation(trx, conversation.id);
    return { conversation, userMessage, reply, lease: lease.owner };
  });
}

function insertUserMessage(db: Kysely<Database>, conversationId: string, userId: string, content: string) {
  return insertMessage(db, { conversation_id: conversationId, user_id: userId, sender: 'user', content, status: 'complete' });
}

function insertReply(db: Kysely<Database>, conversationId: string, userId: string) {
  return insertMessage(db, { conversation_id: conversationId, user_id: userId, sender: 'Assistant', content: '', status: 'streaming' });
}
