import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// Each person's colour theme (issue 28): 'system' (follow the device), 'light' or 'dark'. Kept on the server so the
// choice follows the person to every device and sign-in.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('theme', 'text', (c) => c.notNull().defaultTo('system')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('theme').execute();
}
