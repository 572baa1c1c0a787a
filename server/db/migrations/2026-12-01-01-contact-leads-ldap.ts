import { type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// The landing page's contact form leads (administration spec: Landing page, 'Let's Register!'), and a premium
// client's directory settings for LDAP sign-in, the bind secret only encrypted like the OAuth secrets.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('contact_leads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('email', 'text')
    .addColumn('hear_about_us', 'text', (c) => c.notNull())
    // The address the lead came from (rate limit, abuse review); never shown to the public.
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // The superuser's list is newest first, paged by (created_at, id).
  await db.schema.createIndex('contact_leads_created_idx').on('contact_leads').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('client_ldap_settings')
    .addColumn('client_id', 'text', (c) => c.primaryKey().references('clients.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    // Either a bind DN template with {email} / {username}, or a service bind plus search base and filter.
    .addColumn('bind_dn_template', 'text')
    .addColumn('search_base', 'text')
    .addColumn('search_filter', 'text')
    .addColumn('service_bind_dn', 'text')
    // AES-256-GCM under OAUTH_SECRET_KEY (server/lib/secret-box.ts); null when no service bind is used.
    .addColumn('service_secret_sealed', 'text')
    .addColumn('tls_reject_unauthorized', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('client_ldap_settings').execute();
  await db.schema.dropTable('contact_leads').execute();
}
