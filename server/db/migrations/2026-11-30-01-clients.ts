import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- a migration must not depend on today's Database types */
// Frozen in time: never edit after release; later changes go into new, later-dated files.
// Client organisations (issue 30): the packages standard and premium become rows whose `features` the server's
// entitlements read (they were a table in code). Seeded when missing; a row whose features name none of the chat
// features (the demo seed's placeholders) gets the features the code table gave its type, so nobody's chat changes.

const CHAT_FEATURES = ['browsing', 'image_generation', 'reasoning'];
const BASIC = ['browsing', 'reasoning'];
const PREMIUM = ['browsing', 'image_generation', 'reasoning'];

export async function up(db: Kysely<any>): Promise<void> {
  const rows: { id: string; type: string; features: string }[] = await db.selectFrom('packages').select(['id', 'type', 'features']).execute();
  for (const row of rows) {
    if (namesChatFeature(row.features)) continue;
    const features = row.type.toLowerCase() === 'premium' ? PREMIUM : BASIC;
    await db.updateTable('packages').set({ features: JSON.stringify(features) }).where('id', '=', row.id).execute();
  }
  const now = new Date().toISOString();
  for (const [type, features] of [['standard', BASIC], ['premium', PREMIUM]] as const) {
    if (rows.some((row) => row.type === type)) continue;
    await db.insertInto('packages').values({ id: randomUUID(), type, features: JSON.stringify(features), created_at: now }).execute();
  }
}

/** The rows stay: subscriptions refer to them. */
export async function down(): Promise<void> {}

function namesChatFeature(json: string): boolean {
  try {
    const features: unknown = JSON.parse(json);
    return Array.isArray(features) && features.some((feature) => CHAT_FEATURES.includes(feature as string));
  } catch {
    return false;
  }
}
