import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// Portable types only (text, integer) so the same file runs on SQLite and PostgreSQL.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('origin', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(inList('status', ['active', 'inactive', 'pending'])))
    .addColumn('auth_type', 'text', (c) => c.notNull())
    .addColumn('client_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('clients_client_name_idx').on('clients').column('client_name').execute();
  await db.schema.createIndex('clients_status_idx').on('clients').column('status').execute();

  await db.schema
    .createTable('packages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull().unique())
    .addColumn('features', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('package_id', 'text', (c) => c.notNull().references('packages.id'))
    .addColumn('max_users', 'integer', (c) => c.notNull())
    .addColumn('fair_use', 'integer', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('expire_date', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('subscriptions_client_id_start_date_idx')
    .on('subscriptions')
    .columns(['client_id', 'start_date'])
    .execute();
  await db.schema.createIndex('subscriptions_package_id_idx').on('subscriptions').column('package_id').execute();

  await db.schema
    .createTable('departments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('departments_client_id_name_idx').on('departments').columns(['client_id', 'name']).execute();

  await db.schema
    .createTable('units')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('department_id', 'text', (c) => c.notNull().references('departments.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('units_department_id_idx').on('units').column('department_id').execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.references('clients.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('role', 'text', (c) => c.notNull().check(inList('role', ['superuser', 'admin', 'user'])))
    .addColumn('status', 'text', (c) => c.notNull().check(inList('status', ['active', 'inactive'])))
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('image_url', 'text')
    .addColumn('department_id', 'text', (c) => c.references('departments.id').onDelete('set null'))
    .addColumn('unit_id', 'text', (c) => c.references('units.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Emails are stored lower-cased, so this unique index is case-insensitive in effect.
  await db.schema.createIndex('users_email_uq').on('users').column('email').unique().execute();
  await db.schema.createIndex('users_client_id_idx').on('users').column('client_id').execute();
  await db.schema.createIndex('users_department_id_idx').on('users').column('department_id').execute();
  await db.schema.createIndex('users_unit_id_idx').on('users').column('unit_id').execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('refresh_tokens_token_hash_uq').on('refresh_tokens').column('token_hash').unique().execute();
  await db.schema.createIndex('refresh_tokens_family_id_idx').on('refresh_tokens').column('family_id').execute();
  await db.schema.createIndex('refresh_tokens_user_id_idx').on('refresh_tokens').column('user_id').execute();
  await db.schema.createIndex('refresh_tokens_expires_at_idx').on('refresh_tokens').column('expires_at').execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('password_resets_token_hash_uq').on('password_resets').column('token_hash').unique().execute();
  await db.schema.createIndex('password_resets_user_id_idx').on('password_resets').column('user_id').execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limits_window_start_idx').on('rate_limits').column('window_start').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'rate_limits',
    'password_resets',
    'refresh_tokens',
    'users',
    'units',
    'departments',
    'subscriptions',
    'packages',
    'clients',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

function inList(column: string, values: readonly string[]) {
  // Values are constants of this file, never user input.
  return sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);
}
