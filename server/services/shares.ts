import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sender } from '../../contract/chat';
import { SHARE_NOT_FOUND, type ShareLink, type SharedConversation } from '../../contract/shares';
import type { Database } from '../db/database';
import {
  findShare,
  findShareOfConversation,
  listSharedMessages,
  replaceSharedMessages,
  upsertShare,
  type ShareRecord,
} from '../db/repositories/shares';
import type { UserRecord } from '../db/repositories/users';
import { isoNow } from '../db/timestamps';
import { inTransaction } from '../db/transaction';
import { requireOwnConversation } from './chat';
import { NotFoundError } from './errors';

/** 144 random bits, 24 URL-safe characters: a link cannot be guessed or enumerated. */
const SHARE_ID_BYTES = 18;

/** The SPA's route of a shared conversation (spec: /share/{shared_id}), under PUBLIC_URL (which may carry a path). */
export function shareUrl(publicUrl: string, shareId: string): string {
  return `${publicUrl}/share/${shareId}`;
}

/**
 * The conversation's read-only link. Asking again keeps the link and brings its snapshot up to now (as other chat
 * products do when a conversation is shared again), so a link shows what its owner last chose to share. Another
 * person's conversation answers 'Conversation not found', like every other conversation route.
 */
export async function shareConversation(
  db: Kysely<Database>,
  publicUrl: string,
  user: Pick<UserRecord, 'id'>,
  conversationId: string,
): Promise<ShareLink> {
  const shareId = await inTransaction(db, async (trx) => {
    // Inside the transaction, so a conversation deleted meanwhile is a 404, not a failed foreign key.
    const conversation = await requireOwnConversation(trx, user.id, conversationId);
    const id = await upsertShare(trx, {
      newId: randomBytes(SHARE_ID_BYTES).toString('base64url'),
      conversationId: conversation.id,
      title: conversation.title,
      now: isoNow(),
    });
    await replaceSharedMessages(trx, id, conversation.id);
    return id;
  });
  return { share_url: shareUrl(publicUrl, shareId) };
}

/**
 * The one rule for who may read a share: signed-in people of the conversation's organisation only (the link is for
 * colleagues, and a conversation's text must not leave its organisation). A superuser (no organisation) reads only
 * the shares of superusers' conversations (null matches null), never an organisation's.
 */
export function mayReadShare(viewer: Pick<UserRecord, 'client_id'>, share: Pick<ShareRecord, 'client_id'>): boolean {
  return share.client_id === viewer.client_id;
}

/** The conversation's share when there is one and the viewer may read it (mayReadShare); otherwise undefined. */
export async function findReadableShareOfConversation(
  db: Kysely<Database>,
  viewer: Pick<UserRecord, 'client_id'>,
  conversationId: string,
): Promise<ShareRecord | undefined> {
  const share = await findShareOfConversation(db, conversationId);
  return share && mayReadShare(viewer, share) ? share : undefined;
}

/**
 * A shared conversation, for whoever mayReadShare. Anyone else gets the same 404 as for an unknown link (not 403):
 * the answer does not confirm that the link exists.
 */
export async function readSharedConversation(
  db: Kysely<Database>,
  viewer: Pick<UserRecord, 'client_id'>,
  shareId: string,
): Promise<SharedConversation> {
  const share = await findShare(db, shareId);
  if (!share || !mayReadShare(viewer, share)) throw new NotFoundError(SHARE_NOT_FOUND);
  const messages = await listSharedMessages(db, share.id);
  return {
    conversation: { id: share.conversation_id, title: share.title, created_at: share.conversation_created_at },
    messages: messages.map((m) => ({ id: m.message_id, content: m.content, sender: sender.parse(m.sender), created_at: m.created_at })),
  };
}
