import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, SharedMessagesTable } from '../database';

export type SharedMessageRecord = Omit<Selectable<SharedMessagesTable>, 'share_id'>;

/** A share with what its readers are checked against and shown of the conversation. */
export interface ShareRecord {
  id: string;
  conversation_id: string;
  title: string;
  snapshot_at: string;
  /** The conversation's organisation (null: a superuser's conversation). */
  client_id: string | null;
  conversation_created_at: string;
}

/**
 * The conversation's link: created with `newId` the first time, the same one (its title and snapshot time brought
 * up to date) every time after, in one statement, so two requests racing for a first link agree on it.
 */
export async function upsertShare(
  db: Kysely<Database>,
  input: { newId: string; conversationId: string; title: string; now: string },
): Promise<string> {
  const { id } = await db
    .insertInto('shares')
    .values({ id: input.newId, conversation_id: input.conversationId, title: input.title, created_at: input.now, snapshot_at: input.now })
    .onConflict((oc) => oc.column('conversation_id').doUpdateSet({ title: input.title, snapshot_at: input.now }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Replaces the share's copy with the conversation's complete messages as they are now, copied inside the database
 * (a long conversation never travels through the application). Replies still being written, and those that
 * ended in an error, are left out.
 */
export async function replaceSharedMessages(db: Kysely<Database>, shareId: string, conversationId: string): Promise<void> {
  await db.deleteFrom('shared_messages').where('share_id', '=', shareId).execute();
  await db
    .insertInto('shared_messages')
    .columns(['share_id', 'seq', 'message_id', 'sender', 'content', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('messages')
        // Typed, so PostgreSQL need not guess the parameter's type in a select list.
        .select([sql<string>`cast(${shareId} as text)`.as('share_id'), 'seq', 'id', 'sender', 'content', 'created_at'])
        .where('conversation_id', '=', conversationId)
        .where('status', '=', 'complete'),
    )
    .execute();
}

/** Shares with their conversation's organisation: what a reader is checked against. */
function selectShares(db: Kysely<Database>) {
  return db
    .selectFrom('shares as s')
    .innerJoin('conversations as c', 'c.id', 's.conversation_id')
    .select(['s.id', 's.conversation_id', 's.title', 's.snapshot_at', 'c.client_id', 'c.created_at as conversation_created_at']);
}

export async function findShare(db: Kysely<Database>, id: string): Promise<ShareRecord | undefined> {
  return selectShares(db).where('s.id', '=', id).executeTakeFirst();
}

/** The conversation's share, if it has one (one per conversation; it goes when the conversation is deleted). */
export async function findShareOfConversation(db: Kysely<Database>, conversationId: string): Promise<ShareRecord | undefined> {
  return selectShares(db).where('s.conversation_id', '=', conversationId).executeTakeFirst();
}

/** Oldest first, as the conversation showed them. */
export async function listSharedMessages(db: Kysely<Database>, shareId: string): Promise<SharedMessageRecord[]> {
  return db
    .selectFrom('shared_messages')
    .select(['seq', 'message_id', 'sender', 'content', 'created_at'])
    .where('share_id', '=', shareId)
    .orderBy('seq')
    .execute();
}

/** One of a person's shares, as their list shows it. */
export interface OwnShareRecord {
  id: string;
  conversation_id: string;
  title: string;
  created_at: string;
  snapshot_at: string;
}

/**
 * The shares of conversations that `owner` started in their organisation (`clientId`; null: a superuser's),
 * newest first. Both are checked, so a share is listed only to the person who made it, in the organisation it
 * belongs to.
 */
function ownShares(db: Kysely<Database>, owner: { userId: string; clientId: string | null }) {
  const query = db.selectFrom('shares as s').innerJoin('conversations as c', 'c.id', 's.conversation_id').where('c.user_id', '=', owner.userId);
  return owner.clientId === null ? query.where('c.client_id', 'is', null) : query.where('c.client_id', '=', owner.clientId);
}

export async function listOwnShares(
  db: Kysely<Database>,
  owner: { userId: string; clientId: string | null },
  window: { limit: number; offset: number },
): Promise<{ rows: OwnShareRecord[]; total: number }> {
  const { n } = await ownShares(db, owner)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await ownShares(db, owner)
    .select(['s.id', 's.conversation_id', 's.title', 's.created_at', 's.snapshot_at'])
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { rows, total: Number(n) };
}

/**
 * Deletes the share (its copied messages go with it: foreign key cascade) when `owner` made it; false for any other
 * share, someone else's or none, so the caller answers both alike.
 */
export async function deleteOwnShare(db: Kysely<Database>, owner: { userId: string; clientId: string | null }, shareId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('shares')
    .where('id', '=', shareId)
    .where('conversation_id', 'in', (eb) => {
      const mine = eb.selectFrom('conversations').select('id').where('user_id', '=', owner.userId);
      return owner.clientId === null ? mine.where('client_id', 'is', null) : mine.where('client_id', '=', owner.clientId);
    })
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
