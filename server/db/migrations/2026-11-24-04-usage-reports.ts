import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// The admin usage dashboard and reports (administration spec sections 2 and 3).

export async function up(db: Kysely<any>): Promise<void> {
  // The latest dashboard of each organisation: the dashboard is read every few minutes by every open admin
  // screen, and computing it scans a year of the organisation's usage, so it is kept and reused while fresh.
  await db.schema
    .createTable('dashboard_snapshots')
    .addColumn('client_id', 'text', (c) => c.primaryKey().references('clients.id').onDelete('cascade'))
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('generated_at', 'text', (c) => c.notNull())
    .execute();

  // Covering index of the reports and the dashboard: every column they read follows the organisation and the
  // time range, so both databases answer them from the index alone, never touching the table rows
  // (a month of a 5,000-person organisation is ~50,000 rows).
  await db.schema
    .createIndex('usage_logs_report_idx')
    .on('usage_logs')
    .columns(['client_id', 'created_at', 'purpose', 'user_id', 'department_id', 'unit_id', 'prompt_tokens', 'completion_tokens'])
    .execute();
  // The covering index starts with the same two columns, so the older one only costs writes now.
  await db.schema.dropIndex('usage_logs_client_id_created_at_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('usage_logs_client_id_created_at_idx').on('usage_logs').columns(['client_id', 'created_at']).execute();
  await db.schema.dropIndex('usage_logs_report_idx').execute();
  await db.schema.dropTable('dashboard_snapshots').execute();
}
