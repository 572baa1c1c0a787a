import { fromPromise } from 'xstate';
import type { User, UserStatus } from '../../../contract/user';
import { pagerMachine, type PageRequest, type PageResult } from '../../../machines/pager.machine';
import { usersAdminMachine, type SaveUserRequest, type StatusChange } from '../../../machines/users-admin.machine';
import { fetchUserPage, resendActivation, setUserStatus, updateUser } from '../../api/users';
import { withServerDetail } from '../../lib/load-failure';

/** The Users page's machine with its calls. */
export const usersPageMachine = usersAdminMachine.provide({
  actors: {
    list: pagerMachine.provide({
      actors: {
        fetchPage: fromPromise<PageResult, PageRequest>(async ({ input, signal }) => {
          const status = input.filters.status as UserStatus | undefined;
          const list = await fetchUserPage({ page: input.page, pageSize: input.pageSize, search: input.query, status }, signal);
          return { items: list.users, page: list.page, total: list.total, totalPages: list.total_pages };
        }),
      },
    }),
    save: fromPromise<User, SaveUserRequest>(({ input }) => withServerDetail(updateUser(input.userId, input.body))),
    switchStatus: fromPromise<User, StatusChange>(({ input }) => withServerDetail(setUserStatus(input.userId, input.status))),
    resend: fromPromise<unknown, { userId: string }>(({ input }) => withServerDetail(resendActivation(input.userId))),
  },
});
