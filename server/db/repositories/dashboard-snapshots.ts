import type { Kysely } from 'kysely';
import type { Database } from '../database';

export interface DashboardSnapshot {
  /** The dashboard as JSON text. */
  data: string;
  generated_at: string;
}

/** The organisation's latest dashboard, or undefined when none was made yet. One lookup by primary key. */
export async function findDashboardSnapshot(db: Kysely<Database>, clientId: string): Promise<DashboardSnapshot | undefined> {
  return db.selectFrom('dashboard_snapshots').select(['data', 'generated_at']).where('client_id', '=', clientId).executeTakeFirst();
}

/** Replaces the organisation's latest dashboard. */
export async function saveDashboardSnapshot(db: Kysely<Database>, clientId: string, snapshot: DashboardSnapshot): Promise<void> {
  await db
    .insertInto('dashboard_snapshots')
    .values({ client_id: clientId, ...snapshot })
    .onConflict((oc) => oc.column('client_id').doUpdateSet(snapshot))
    .execute();
}
