import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// The Clients page pages through clients by name, case-insensitively (then name, then id: repositories/clients.ts).
// Without an index in that order each page sorted the whole table before taking its 10 rows.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('clients_lower_name_name_id')
    .on('clients')
    .expression(sql`lower(client_name), client_name, id`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('clients_lower_name_name_id').execute();
}
