import { API_PREFIX } from '../../contract/api-paths';
import { createApiClient } from './client';

/**
 * The SPA's single API client. The session wires its hooks in at start-up (src/app/session.ts); until then
 * calls go out anonymously, which is what the public screens need.
 */
const hooks = {
  getToken: (): string | null => null,
  refresh: async (): Promise<boolean> => false,
};

export function connectSession(next: typeof hooks) {
  Object.assign(hooks, next);
}

/** Where the client's calls go: the app's base path and the API prefix. */
export const API_BASE = `${import.meta.env.BASE_URL.replace(/\/$/, '')}${API_PREFIX}`;

/** The current access token, for the calls that do not go through the client (the reply streams). */
export const accessToken = () => hooks.getToken();

export const api = createApiClient({
  baseURL: API_BASE,
  getToken: () => hooks.getToken(),
  refresh: () => hooks.refresh(),
});
