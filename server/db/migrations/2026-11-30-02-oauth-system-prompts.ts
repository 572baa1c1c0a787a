import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// A client's OAuth sign-in settings (administration spec: OAuth Configurations), the secret only encrypted; and the
// superuser's system prompts (chat spec: /system-prompts). The fair-use sum needs no index of its own: the usage
// reports' covering index (2026-11-24-04) starts with (client_id, created_at) and holds the token counts.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_configs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text')
    .addColumn('provider_client_id', 'text', (c) => c.notNull())
    // AES-256-GCM under OAUTH_SECRET_KEY: version, IV, tag and ciphertext (server/lib/secret-box.ts).
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // One configuration per provider per client.
  await db.schema.createIndex('oauth_configs_client_provider_idx').on('oauth_configs').columns(['client_id', 'provider']).unique().execute();

  await db.schema
    .createTable('system_prompts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    // Null: for everyone; else for that client's people only, replacing everyone's.
    .addColumn('client_id', 'text', (c) => c.references('clients.id').onDelete('cascade'))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // At most one active prompt per scope (everyone's, or one client's), also under concurrent activations. The
  // same expression reads the active prompt of every reply (system-prompt.ts).
  await sql`create unique index system_prompts_one_active_idx on system_prompts ((coalesce(client_id, ''))) where is_active = 1`.execute(db);
  await db.schema.createIndex('system_prompts_client_idx').on('system_prompts').column('client_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('system_prompts').execute();
  await db.schema.dropTable('oauth_configs').execute();
}
