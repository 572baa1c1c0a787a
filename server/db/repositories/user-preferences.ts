import type { Kysely } from 'kysely';
import type { ThemeChoice } from '../../../contract/theme';
import type { Database } from '../database';
import { isoNow } from '../timestamps';

/** Sets one person's theme; nothing else of the row changes (no session version: tokens stay good). */
export async function updateUserTheme(db: Kysely<Database>, userId: string, theme: ThemeChoice): Promise<void> {
  await db.updateTable('users').set({ theme, updated_at: isoNow() }).where('id', '=', userId).execute();
}
