import { PREFERENCES_PATH, type UpdatePreferencesRequest } from '../../contract/preferences';
import type { User } from '../../contract/user';
import { api } from './http';

/** PATCH /users/me/preferences: the person as saved (with their theme). */
export async function savePreferences(body: UpdatePreferencesRequest): Promise<User> {
  return (await api.patch<User>(PREFERENCES_PATH, body)).data;
}
