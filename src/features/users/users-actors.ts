import { fromPromise } from 'xstate';
import type { User, UserStatus } from '../../../contract/user';
import { pagerMachine, type PageRequest, type PageResult } from '../../../machines/pager.machine';
import type { SaveUserRequest, StatusChange } from '../../../machines/users-admin.machine';
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
 * The Users page's side effects: a page of people (of a status, or all), the Edit User save, the status switch and
 * the activation e-mail sent again. Built once at module level: `usersAdminMachine.provide({ actors })`.
 */
export function defineUsersActors({ api }: { api: UsersApi }) {
  return {
    list: pagerMachine.provide({
      actors: {
        fetchPage: fromPromise<PageResult, PageRequest>(async ({ input, signal }) => {
          const status = input.filters.status as UserStatus | undefined;
          const list = await api.fetchUserPage({ page: input.page, pageSize: input.pageSize, search: input.query, status }, signal);
          return { items: list.users, page: list.page, total: list.total, totalPages: list.total_pages };
        }),
      },
    }),
    save: fromPromise<User, SaveUserRequest>(({ input }) => withServerDetail(api.updateUser(input.userId, input.body))),
    switchStatus: fromPromise<User, StatusChange>(({ input }) => withServerDetail(api.setUserStatus(input.userId, input.status))),
    resend: fromPromise<unknown, { userId: string }>(({ input }) => withServerDetail(api.resendActivation(input.userId))),
  };
}
