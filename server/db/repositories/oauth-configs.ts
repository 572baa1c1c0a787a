import type { Kysely, Selectable } from 'kysely';
import type { Database, OAuthConfigsTable } from '../database';
import { isoNow } from '../timestamps';

export type OAuthConfigRecord = Selectable<OAuthConfigsTable>;
export type OAuthConfigChanges = Partial<Pick<OAuthConfigRecord, 'provider' | 'tenant_id' | 'provider_client_id' | 'secret_sealed'>>;

/** `id` is chosen by the caller: the sealed secret is bound to it. */
export async function insertOAuthConfig(db: Kysely<Database>, row: Omit<OAuthConfigRecord, 'created_at' | 'updated_at'>): Promise<OAuthConfigRecord> {
  const now = isoNow();
  const record: OAuthConfigRecord = { ...row, created_at: now, updated_at: now };
  await db.insertInto('oauth_configs').values(record).execute();
  return record;
}

export async function listOAuthConfigs(db: Kysely<Database>, clientId: string): Promise<OAuthConfigRecord[]> {
  return db.selectFrom('oauth_configs').selectAll().where('client_id', '=', clientId).orderBy('provider').execute();
}

export async function findOAuthConfig(db: Kysely<Database>, clientId: string, id: string): Promise<OAuthConfigRecord | undefined> {
  return db.selectFrom('oauth_configs').selectAll().where('client_id', '=', clientId).where('id', '=', id).executeTakeFirst();
}

export async function findOAuthConfigByProvider(db: Kysely<Database>, clientId: string, provider: string): Promise<OAuthConfigRecord | undefined> {
  return db.selectFrom('oauth_configs').selectAll().where('client_id', '=', clientId).where('provider', '=', provider as OAuthConfigRecord['provider']).executeTakeFirst();
}

export async function updateOAuthConfig(db: Kysely<Database>, clientId: string, id: string, changes: OAuthConfigChanges): Promise<boolean> {
  const result = await db
    .updateTable('oauth_configs')
    .set({ ...changes, updated_at: isoNow() })
    .where('client_id', '=', clientId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteOAuthConfig(db: Kysely<Database>, clientId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('oauth_configs').where('client_id', '=', clientId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether any configuration is stored (start-up refuses to run without the key that opens them). */
export async function anyOAuthConfig(db: Kysely<Database>): Promise<boolean> {
  return (await db.selectFrom('oauth_configs').select('id').limit(1).executeTakeFirst()) !== undefined;
}
