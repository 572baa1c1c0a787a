import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// A reply the person stopped: when they asked (null for every other message). The writer of the reply, in this
// process or another, ends it with the text so far once it sees this set.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('stopped_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('stopped_at').execute();
}
