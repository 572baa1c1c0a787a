import { user as userSchema, type User } from '../../contract/user';
import type { SessionContext, SessionInput } from '../../machines/session.machine';

/** The spec's local storage keys. */
export const STORAGE_KEYS = { token: 'token', refreshToken: 'refreshToken', user: 'user' } as const;

function parseUser(raw: string | null): User | null {
  if (!raw) return null;
  try {
    const parsed = userSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function loadSession(storage: Storage = localStorage): SessionInput {
  return {
    token: storage.getItem(STORAGE_KEYS.token),
    refreshToken: storage.getItem(STORAGE_KEYS.refreshToken),
    user: parseUser(storage.getItem(STORAGE_KEYS.user)),
  };
}

function put(storage: Storage, key: string, value: string | null) {
  if (value === null) storage.removeItem(key);
  else if (storage.getItem(key) !== value) storage.setItem(key, value);
}

export function saveSession(context: Pick<SessionContext, 'token' | 'refreshToken' | 'user'>, storage: Storage = localStorage) {
  put(storage, STORAGE_KEYS.token, context.token);
  put(storage, STORAGE_KEYS.refreshToken, context.refreshToken);
  put(storage, STORAGE_KEYS.user, context.user ? JSON.stringify(context.user) : null);
}
