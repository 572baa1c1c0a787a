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

/** The current access token, for the one call that does not go through the client (the streamed send). */
export const accessToken = () => hooks.getToken();

export const api = createApiClient({
  baseURL: `${import.meta.env.BASE_URL.replace(/\/$/, '')}${API_PREFIX}`,
  getToken: () => hooks.getToken(),
  refresh: () => hooks.refresh(),
});
