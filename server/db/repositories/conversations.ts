import { randomUUID } from 'node:crypto';
import { PostgresAdapter, sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { ConversationsTable, Database } from '../database';
import { preparedQuery, type Slots } from '../prepared-query';
import { isoNow } from '../timestamps';

export type ConversationRecord = Omit<Selectable<ConversationsTable>, 'answering_until' | 'answering_owner'>;

/** A conversation's answering lease: until when, and by whom (the owner string is unique per lease). */
export interface AnsweringLease {
  until: string;
  owner: string;
}

/** Explicit columns: on SQLite the table also has `rid`, the search index key, which nothing else should see. */
const COLUMNS = ['id', 'user_id', 'client_id', 'title', 'created_at', 'updated_at'] as const;

export interface NewConversation {
  user_id: string;
  client_id: string | null;
  title: string;
  /** Created with its answering lease already taken: the first reply starts at once. */
  answering_until: string;
  answering_owner?: string | null;
}

export async function insertConversation(db: Kysely<Database>, input: NewConversation): Promise<ConversationRecord> {
  const now = isoNow();
  const row = { id: randomUUID(), ...input, created_at: now, updated_at: now };
  await db.insertInto('conversations').values(row).execute();
  const { answering_until: _lease, answering_owner: _owner, ...record } = row;
  return record;
}

/** Undefined for an unknown id and for another user's conversation alike. */
export async function findOwnConversation(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<ConversationRecord | undefined> {
  return db.selectFrom('conversations').select(COLUMNS).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** The same, with the end of its answering lease (null: free), for a send to look before it writes. */
export async function findOwnConversationWithLease(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<(ConversationRecord & { answering_until: string | null; has_documents: boolean }) | undefined> {
  const row = await conversationWithLease.executeTakeFirst(db, id, userId);
  // SQLite answers 0/1, PostgreSQL a boolean.
  return row && { ...row, has_documents: Boolean(row.has_documents) };
}

// Read by every follow-up before the model is asked: compiled once (see prepared-query.ts).
const conversationWithLease = preparedQuery(
  (db, slot: Slots<[id: string, userId: string]>) =>
    db
      .selectFrom('conversations')
      .select([...COLUMNS, 'answering_until'])
      // In the same read: a send to a conversation without documents then spends no query on retrieval.
      .select((eb) =>
        eb.exists(eb.selectFrom('documents').select('documents.id').whereRef('documents.conversation_id', '=', 'conversations.id')).as('has_documents'),
      )
      .where('id', '=', slot(0))
      .where('user_id', '=', slot(1)),
);

/**
 * Takes the answering lease in one conditional UPDATE, so two instances racing for it cannot both win.
 * False when a reply is still being written (or the conversation is not the user's).
 */
export async function takeAnsweringLease(
  db: Kysely<Database>,
  userId: string,
  id: string,
  now: string,
  lease: AnsweringLease,
): Promise<boolean> {
  const result = await db
    .updateTable('conversations')
    .set({ answering_until: lease.until, answering_owner: lease.owner })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('answering_until', 'is', null), eb('answering_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Rows per statement when many leases are renewed at once (well under every driver's parameter limit). */
const RENEW_CHUNK = 500;

/**
 * Extends the leases still held by these owners, in few statements; returns how many were renewed (a lease
 * lost to the sweep or to another writer is not renewed: its owner string differs now).
 */
export async function renewAnsweringLeases(
  db: Kysely<Database>,
  leases: ReadonlyArray<{ conversationId: string; owner: string }>,
  until: string,
): Promise<number> {
  let renewed = 0;
  for (let i = 0; i < leases.length; i += RENEW_CHUNK) {
    const chunk = leases.slice(i, i + RENEW_CHUNK);
    const result = await db
      .updateTable('conversations')
      .set({ answering_until: until })
      .where(
        'id',
        'in',
        chunk.map((l) => l.conversationId),
      )
      .where(
        'answering_owner',
        'in',
        chunk.map((l) => l.owner),
      )
      .executeTakeFirst();
    renewed += Number(result.numUpdatedRows);
  }
  return renewed;
}

/** Ends the lease if this owner still holds it; `touch` also records the activity (a reply was written). */
export async function releaseAnsweringLease(db: Kysely<Database>, id: string, owner: string, touch: boolean): Promise<void> {
  const held = sql<boolean>`answering_owner = ${owner}`;
  await db
    .updateTable('conversations')
    .set({
      answering_until: sql<string | null>`case when ${held} then null else answering_until end`,
      answering_owner: sql<string | null>`case when ${held} then null else answering_owner end`,
      ...(touch ? { updated_at: isoNow() } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** Every distinct holder of a lease right now (few: the replies being written). */
export async function listAnsweringOwners(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('conversations').select('answering_owner').distinct().where('answering_owner', 'is not', null).execute();
  return rows.map((r) => r.answering_owner).filter((o): o is string => o !== null);
}

/**
 * Frees a lease judged abandoned, only if it is still exactly as it was seen (a writer that renewed it in the
 * meantime, or a new writer that took it, keeps it). True when the conversation is now free of that lease.
 */
export async function releaseAbandonedLease(
  db: Kysely<Database>,
  id: string,
  seen: { until: string | null; owner: string | null },
): Promise<boolean> {
  if (seen.until === null && seen.owner === null) return true;
  const result = await db
    .updateTable('conversations')
    .set({ answering_until: null, answering_owner: null })
    .where('id', '=', id)
    .where((eb) =>
      eb.and([
        seen.until === null ? eb('answering_until', 'is', null) : eb('answering_until', '=', seen.until),
        seen.owner === null ? eb('answering_owner', 'is', null) : eb('answering_owner', '=', seen.owner),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function touchConversation(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('conversations').set({ updated_at: isoNow() }).where('id', '=', id).execute();
}

export async function renameOwnConversation(
  db: Kysely<Database>,
  userId: string,
  id: string,
  title: string,
): Promise<ConversationRecord | undefined> {
  return db
    .updateTable('conversations')
    .set({ title, updated_at: isoNow() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(COLUMNS)
    .executeTakeFirst();
}

/** Sets a generated title unless the conversation was renamed meanwhile (a rename by the user wins). */
export async function replaceDefaultTitle(db: Kysely<Database>, id: string, defaultTitle: string, title: string): Promise<boolean> {
  const result = await db
    .updateTable('conversations')
    .set({ title })
    .where('id', '=', id)
    .where('title', '=', defaultTitle)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteOwnConversation(db: Kysely<Database>, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('conversations').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export interface PageWindow {
  limit: number;
  offset: number;
}

/** One user's conversations, newest activity first, served by the (user_id, updated_at, id) index. */
export async function listOwnConversations(
  db: Kysely<Database>,
  userId: string,
  window: PageWindow,
): Promise<{ rows: ConversationRecord[]; total: number }> {
  const base = db.selectFrom('conversations').where('user_id', '=', userId);
  const { n } = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .select(COLUMNS)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { rows, total: Number(n) };
}

export interface SearchHit extends ConversationRecord {
  /** The newest matching message's text, or null when only the title matched. */
  hit_text: string | null;
}

/**
 * Conversations of one user whose title or any message matches every term as a word prefix, newest activity
 * first. `terms` are letters and digits only (see searchTerms in services/chat.ts), so they are safe inside
 * the FTS5 and tsquery syntax they are put into.
 */
export async function searchOwnConversations(
  db: Kysely<Database>,
  userId: string,
  terms: string[],
  window: PageWindow,
): Promise<{ rows: SearchHit[]; total: number }> {
  if (terms.length === 0) return { rows: [], total: 0 };
  const match = db.getExecutor().adapter instanceof PostgresAdapter ? postgresMatch(terms) : sqliteMatch(terms);
  const hits = sql`
    with message_hits as (
      select m.conversation_id, m.content,
             row_number() over (partition by m.conversation_id order by m.seq desc) as rn
      ${match.messages} and m.user_id = ${userId}
    ),
    title_hits as (
      select c.id ${match.titles} and c.user_id = ${userId}
    )
    select c.id, c.user_id, c.client_id, c.title, c.created_at, c.updated_at, h.content as hit_text
    from conversations c
    left join message_hits h on h.conversation_id = c.id and h.rn = 1
    where c.user_id = ${userId} and (h.conversation_id is not null or c.id in (select id from title_hits))`;
  const [{ rows: counted }, { rows }] = await Promise.all([
    sql<{ n: number | string }>`select count(*) as n from (${hits}) as matched`.execute(db),
    sql<SearchHit>`${hits} order by c.updated_at desc, c.id desc limit ${window.limit} offset ${window.offset}`.execute(db),
  ]);
  return { rows, total: Number(counted[0]?.n ?? 0) };
}

interface MatchClauses {
  /** `from ... where <match>` over messages aliased m. */
  messages: RawBuilder<unknown>;
  /** `from ... where <match>` over conversations aliased c. */
  titles: RawBuilder<unknown>;
}

function sqliteMatch(terms: string[]): MatchClauses {
  const query = terms.map((t) => `"${t}"*`).join(' ');
  return {
    messages: sql`from messages_fts f join messages m on m.rid = f.rowid where messages_fts match ${query}`,
    titles: sql`from conversations_fts f join conversations c on c.rid = f.rowid where conversations_fts match ${query}`,
  };
}

function postgresMatch(terms: string[]): MatchClauses {
  const query = terms.map((t) => `'${t}':*`).join(' & ');
  // Written exactly like the expression indexes of the chat migration, so the planner uses them.
  return {
    messages: sql`from messages m where to_tsvector('simple', m.content) @@ to_tsquery('simple', ${query})`,
    titles: sql`from conversations c where to_tsvector('simple', c.title) @@ to_tsquery('simple', ${query})`,
  };
}
