import { fromPromise } from 'xstate';
import type { UserStatus } from '../../../contract/user';
import { pagerMachine, type PageRequest, type PageResult } from '../../../machines/pager.machine';
import type { Draft } from '../../../machines/record-editor.machine';
import type { SaveUserRequest, UserAct } from '../../../machines/users-admin.machine';
import type { fetchUserPage, resendActivation, setUserStatus, updateUser } from '../../api/users';
import { withServerDetail } from '../../lib/load-failure';

/** The API functions the Users page calls (src/api/users.ts; tests pass fakes). */
export interface UsersApi {
  fetchUserPage: typeof fetchUserPage;
  updateUser: typeof updateUser;
  setUserStatus: typeof setUserStatus;
  resendActivation: typeof resendActivation;
}

/**
 * The Users page's side effects, for the record editor (machines/record-editor.machine.ts): a page of people (of a
 * status, or all), the Edit User save, and its acts: the status switch and the activation e-mail sent again. Built
 * once at module level: `recordEditorMachine.provide({ actors: defineUsersActors({ api }) })`; a client's Users page
 * (the superuser's /clients/{id}/users) builds one with that `clientId`, whose people it lists.
 */
export function defineUsersActors({ api, clientId }: { api: UsersApi; clientId?: string }) {
  return {
    list: pagerMachine.provide({
      actors: {
        fetchPage: fromPromise<PageResult, PageRequest>(async ({ input, signal }) => {
          const status = input.filters.status as UserStatus | undefined;
          const list = await api.fetchUserPage({ page: input.page, pageSize: input.pageSize, search: input.query, status, clientId }, signal);
          return { items: list.users, page: list.page, total: list.total, totalPages: list.total_pages };
        }),
      },
    }),
    save: fromPromise<unknown, unknown>(({ input }) => {
      const request = input as SaveUserRequest;
      return withServerDetail(api.updateUser(request.userId, request.body));
    }),
    act: fromPromise<unknown, Draft>(({ input }) => {
      const act = input as unknown as UserAct;
      return act.kind === 'status' ? withServerDetail(api.setUserStatus(act.userId, act.status)) : withServerDetail(api.resendActivation(act.userId));
    }),
  };
}
