import type { Kysely, Selectable } from 'kysely';
import type { ClientLdapSettingsTable, Database } from '../database';
import { isoNow } from '../timestamps';

export type LdapSettingsRecord = Selectable<ClientLdapSettingsTable>;
export type LdapSettingsValues = Omit<LdapSettingsRecord, 'client_id' | 'created_at' | 'updated_at'>;

export async function findLdapSettings(db: Kysely<Database>, clientId: string): Promise<LdapSettingsRecord | undefined> {
  return db.selectFrom('client_ldap_settings').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

/** One row per client: written whole. */
export async function saveLdapSettings(db: Kysely<Database>, clientId: string, values: LdapSettingsValues): Promise<LdapSettingsRecord> {
  const now = isoNow();
  await db
    .insertInto('client_ldap_settings')
    .values({ client_id: clientId, ...values, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('client_id').doUpdateSet({ ...values, updated_at: now }))
    .execute();
  const saved = await findLdapSettings(db, clientId);
  if (!saved) throw new Error('LDAP settings vanished right after being saved');
  return saved;
}

export async function deleteLdapSettings(db: Kysely<Database>, clientId: string): Promise<boolean> {
  const result = await db.deleteFrom('client_ldap_settings').where('client_id', '=', clientId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
