import { featureNames } from '../../contract/features';
import { roles } from '../../contract/roles';
import type { User } from '../../contract/user';
import type { SessionContext, SessionInput } from '../../machines/session.machine';

/** The spec's local storage keys. */
export const STORAGE_KEYS = { token: 'token', refreshToken: 'refreshToken', user: 'user' } as const;

// A hand-written check instead of the contract's zod schema: zod would add about 40 KB (gzip) to the login route,
// and a unit test holds this check to the schema.
const stringFields = ['id', 'name', 'email', 'package_name'] as const;
const nullableStringFields = ['image_url', 'department_id', 'unit_id', 'client_id'] as const;

export function isStoredUser(value: unknown): value is User {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    stringFields.every((k) => typeof v[k] === 'string') &&
    nullableStringFields.every((k) => v[k] === null || typeof v[k] === 'string') &&
    (roles as readonly unknown[]).includes(v.role) &&
    (v.status === 'active' || v.status === 'inactive') &&
    typeof v.verified === 'boolean' &&
    Array.isArray(v.features) &&
    v.features.every((f) => (featureNames as readonly unknown[]).includes(f))
  );
}

function parseUser(raw: string | null): User | null {
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    // A user stored before `features` existed stays signed in; the user is reloaded on restore anyway.
    if (typeof parsed === 'object' && parsed !== null && !('features' in parsed)) Object.assign(parsed, { features: [] });
    return isStoredUser(parsed) ? parsed : null;
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
