import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// Each person's session version, carried in their access tokens (claim `sv`): raising it (new password,
// deactivation, role change) refuses every access token signed before, at once, instead of up to 15 minutes later.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('session_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('session_version').execute();
}
