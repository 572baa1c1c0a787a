import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// The policy prompt of an organisation (administration spec: Global policy), one row per organisation that set
// one, with who changed it last.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('global_policies')
    .addColumn('client_id', 'text', (c) => c.primaryKey().references('clients.id').onDelete('cascade'))
    .addColumn('policy_prompt', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('global_policies').execute();
}
