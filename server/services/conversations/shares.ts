import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sender } from '../../../contract/chat';
import { SHARE_NOT_FOUND, type ShareLink, type ShareList, type SharedConversation } from '../../../contract/shares';
import type { Database } from '../../db/database';
import {
  deleteOwnShare,
  findShare,
  findShareOfConversation,
  listOwnShares,
  listSharedMessages,
  replaceSharedMessages,
  upsertShare,
  type ShareRecord,
} from '../../db/repositories/shares';
import type { UserRecord } from '../../db/repositories/users';
import { isoNow } from '../../db/timestamps';
import { inTransaction } from '../../db/transaction';
import { requireOwnConversation } from './access';
import { NotFoundError } from '../errors';
import { pageWindow, totalPages } from '../paging';

/** 144 random bits, 24 URL-safe characters: a link cannot be guessed or enumerated. */
const SHARE_ID_BYTES = 18;

/**
 * The SPA's route of a shared conversation (spec: /share/{shared_id}), under PUBLIC_URL (which may carry a path).
 * Never from the request's Host header: a forged Host would otherwise put someone else's address in the link an
 * owner copies and sends to colleagues.
 */
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
  return { share_url: shareUrl(publicUrl, shareId), share_id: shareId };
}

type Owner = Pick<UserRecord, 'id' | 'client_id'>;
const ownerOf = (user: Owner) => ({ userId: user.id, clientId: user.client_id });

/** The person's own shared links, newest first: only conversations they started, in their organisation. */
export async function listMyShares(
  db: Kysely<Database>,
  publicUrl: string,
  user: Owner,
  opts: { page: number; page_size: number },
): Promise<ShareList> {
  const { rows, total } = await listOwnShares(db, ownerOf(user), pageWindow(opts.page, opts.page_size));
  return {
    shares: rows.map((r) => ({ ...r, share_url: shareUrl(publicUrl, r.id) })),
    page: opts.page,
    page_size: opts.page_size,
    total,
    total_pages: totalPages(total, opts.page_size),
  };
}

/**
 * Stops sharing: the link opens nothing from now on (its snapshot is deleted with it). Someone else's share, in this
 * organisation or another, answers the 404 of an unknown link, so the answer never confirms that a link exists.
 * Sharing the conversation again later makes a new link; the old one stays dead.
 */
export async function revokeShare(db: Kysely<Database>, user: Owner, shareId: string): Promise<void> {
  if (!(await deleteOwnShare(db, ownerOf(user), shareId))) throw new NotFoundError(SHARE_NOT_FOUND);
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
