import type { Kysely } from 'kysely';
import type { UpdatePreferencesRequest } from '../../../contract/preferences';
import type { User } from '../../../contract/user';
import type { Database } from '../../db/database';
import { updateUserTheme } from '../../db/repositories/user-preferences';
import type { UserRecord } from '../../db/repositories/users';
import { toOwnUserView } from './user-view';

/** The caller's own preferences; answers the caller as their own views show them (with the theme). */
export async function updateOwnPreferences(db: Kysely<Database>, user: UserRecord, input: UpdatePreferencesRequest): Promise<User> {
  await updateUserTheme(db, user.id, input.theme);
  return toOwnUserView(db, { ...user, theme: input.theme });
}
