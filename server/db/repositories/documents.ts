import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, DocumentsTable } from '../database';
import { isoNow } from '../timestamps';

// The only place that reads and writes the `documents` table (chunks are written by ingestion, server/services/documents/ingest).

export type DocumentRecord = Selectable<DocumentsTable>;

export type NewDocument = Omit<DocumentsTable, 'id' | 'chunk_count' | 'created_at' | 'updated_at' | 'note' | 'error' | 'message_id'> & {
  note?: string | null;
};

export async function insertDocument(db: Kysely<Database>, input: NewDocument): Promise<DocumentRecord> {
  const now = isoNow();
  const row: DocumentRecord = { id: randomUUID(), note: null, error: null, chunk_count: 0, message_id: null, ...input, created_at: now, updated_at: now };
  await db.insertInto('documents').values(row).execute();
  return row;
}

/**
 * Bytes of every file the organisation stores (uploads and generated images): the storage quota's measure. An
 * index-only read of documents_report_idx, which starts with client_id and carries size.
 */
export async function organisationStoredBytes(db: Kysely<Database>, clientId: string): Promise<number> {
  const { bytes } = await db
    .selectFrom('documents')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('bytes'))
    .where('client_id', '=', clientId)
    .executeTakeFirstOrThrow();
  // PostgreSQL sums integers as numeric, which pg hands over as text.
  return Number(bytes);
}

/**
 * Any document by id: for ingestion and other work outside a request, and for a download whose reader the service
 * checks itself (owner, or reader of the conversation's share). Other requests use findOwnDocument.
 */
export async function findDocument(db: Kysely<Database>, id: string): Promise<DocumentRecord | undefined> {
  return db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Undefined for an unknown id and for another user's document alike. */
export async function findOwnDocument(db: Kysely<Database>, userId: string, id: string): Promise<DocumentRecord | undefined> {
  return db.selectFrom('documents').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** By the capability key of GET /files/{key}. */
export async function findDocumentByFileKey(db: Kysely<Database>, fileKey: string): Promise<DocumentRecord | undefined> {
  return db.selectFrom('documents').selectAll().where('file_key', '=', fileKey).executeTakeFirst();
}

/** A conversation's documents, oldest first (the (conversation_id, created_at) index). */
export async function listConversationDocuments(db: Kysely<Database>, conversationId: string): Promise<DocumentRecord[]> {
  return db
    .selectFrom('documents')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

/** Ingestion's progress and outcome (status, note, error, chunk_count); updated_at follows. */
export async function updateDocument(
  db: Kysely<Database>,
  id: string,
  changes: Pick<Updateable<DocumentsTable>, 'status' | 'note' | 'error' | 'chunk_count'>,
): Promise<void> {
  await db
    .updateTable('documents')
    .set({ ...changes, updated_at: isoNow() })
    .where('id', '=', id)
    .execute();
}

/** Deletes the user's document (its chunks cascade); the storage key of what was deleted, or undefined. */
export async function deleteOwnDocument(db: Kysely<Database>, userId: string, id: string): Promise<string | undefined> {
  const row = await db
    .deleteFrom('documents')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning('storage_key')
    .executeTakeFirst();
  return row?.storage_key;
}

/** The storage keys of the user's conversation's files: read before it is deleted (their rows cascade). */
export async function conversationStorageKeys(db: Kysely<Database>, userId: string, conversationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('documents')
    .select('storage_key')
    .where('conversation_id', '=', conversationId)
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => r.storage_key);
}

/**
 * Files attached on the new-chat screen join the conversation the first message created: only the user's own
 * documents that belong to no conversation yet; any other id is passed over.
 */
export async function attachDocumentsToConversation(
  db: Kysely<Database>,
  userId: string,
  documentIds: readonly string[],
  conversationId: string,
): Promise<number> {
  if (documentIds.length === 0) return 0;
  const result = await db
    .updateTable('documents')
    .set({ conversation_id: conversationId, updated_at: isoNow() })
    .where('id', 'in', documentIds)
    .where('user_id', '=', userId)
    .where('conversation_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Deletes up to `limit` files that were uploaded for a new chat created before `createdBefore` and never sent
 * (still in no conversation), oldest first, whose ingestion has ended; returns their storage keys. The outer
 * `conversation_id is null` is checked again on each row as it is deleted: a send attaching one of them at that
 * moment keeps it (on PostgreSQL a concurrent update re-checks the row's own conditions, not the subquery).
 */
export async function deleteUnsentDocuments(db: Kysely<Database>, createdBefore: string, limit: number): Promise<string[]> {
  const rows = await db
    .deleteFrom('documents')
    .where('conversation_id', 'is', null)
    .where('id', 'in', (qb) =>
      qb
        .selectFrom('documents')
        .select('id')
        .where('conversation_id', 'is', null)
        .where('created_at', '<', createdBefore)
        .where('status', 'in', ['ready', 'failed'])
        .orderBy('created_at')
        .limit(limit),
    )
    .returning('storage_key')
    .execute();
  return rows.map((r) => r.storage_key);
}

/** Documents whose ingestion had not finished (queued..saving): a crash stopped it; ingestion resumes them on start. */
export async function listUnfinishedDocumentIds(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom('documents')
    .select('id')
    .where('status', 'in', ['queued', 'chunking', 'embedding', 'saving'])
    .orderBy('created_at', 'asc')
    .execute();
  return rows.map((r) => r.id);
}
