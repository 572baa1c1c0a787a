import { fromPromise } from 'xstate';
import type { OAuthDeletion, SaveOAuthRequest } from '../../../machines/oauth-configs.machine';
import { pagerMachine, type PageRequest, type PageResult } from '../../../machines/pager.machine';
import type { Draft } from '../../../machines/record-editor.machine';
import type { createOAuthConfig, deleteOAuthConfig, fetchOAuthConfigs, updateOAuthConfig } from '../../api/oauth-configs';
import { withAnswerStatus } from '../../lib/answer-status';

/** The API functions the OAuth Configurations modal calls (src/api/oauth-configs.ts; tests pass fakes). */
export interface OAuthConfigsApi {
  fetchOAuthConfigs: typeof fetchOAuthConfigs;
  createOAuthConfig: typeof createOAuthConfig;
  updateOAuthConfig: typeof updateOAuthConfig;
  deleteOAuthConfig: typeof deleteOAuthConfig;
}

/**
 * The OAuth Configurations modal's side effects for one client, for the record editor
 * (machines/record-editor.machine.ts): the client's configurations (one page: one per provider), create or update
 * (`SaveOAuthRequest`) and delete. Failures carry the server's sentence and the HTTP status (a 503 when the server
 * has no OAUTH_SECRET_KEY, a 404 for one already deleted). Built per client:
 * `recordEditorMachine.provide({ actors: defineOAuthConfigsActors({ api, clientId }) })`.
 */
export function defineOAuthConfigsActors({ api, clientId }: { api: OAuthConfigsApi; clientId: string }) {
  return {
    list: pagerMachine.provide({
      actors: {
        fetchPage: fromPromise<PageResult, PageRequest>(async ({ signal }) => {
          const items = await withAnswerStatus(api.fetchOAuthConfigs(clientId, signal));
          return { items, page: 1, total: items.length, totalPages: 1 };
        }),
      },
    }),
    save: fromPromise<unknown, unknown>(({ input }) => {
      const request = input as SaveOAuthRequest;
      return withAnswerStatus(
        request.kind === 'create' ? api.createOAuthConfig(clientId, request.body) : api.updateOAuthConfig(clientId, request.configId, request.body),
      );
    }),
    act: fromPromise<unknown, Draft>(({ input }) => withAnswerStatus(api.deleteOAuthConfig(clientId, (input as unknown as OAuthDeletion).configId))),
  };
}
