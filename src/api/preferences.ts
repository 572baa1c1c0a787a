// The path from api-paths, not contract/preferences.ts: importing a value from a schema file brings zod into every
// route's boot (the session saves the theme), the login route's among them (26.6 KB gzip).
import { paths } from '../../contract/api-paths';
import type { UpdatePreferencesRequest } from '../../contract/preferences';
import type { User } from '../../contract/user';
import { api } from './http';

/** PATCH /users/me/preferences: the person as saved (with their theme). */
export async function savePreferences(body: UpdatePreferencesRequest): Promise<User> {
  return (await api.patch<User>(paths.preferences, body)).data;
}
