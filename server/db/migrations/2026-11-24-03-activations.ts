import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// Account activation links (administration spec: Register user, /activate/{activation_code}). Like
// password_resets, only a SHA-256 hash of the code is kept, so a copy of the database activates nobody.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('activations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('activations_code_hash_uq').on('activations').column('code_hash').unique().execute();
  await db.schema.createIndex('activations_user_id_idx').on('activations').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('activations').execute();
}
