import { useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { UserPlus } from 'lucide-react';
import { DEPARTMENTS_FETCH_FAILED } from '../../../contract/departments-constants';
import type { User } from '../../../contract/user';
import { pagerView, samePagerView } from '../../../machines/pager.machine';
import { recordEditorMachine } from '../../../machines/record-editor.machine';
import { userEvents, usersAdminInput, type StatusFilter } from '../../../machines/users-admin.machine';
import { fetchUserPage, resendActivation, setUserStatus, updateUser } from '../../api/users';
import { useOrganisationDepartments } from '../../lib/use-organisation-departments';
import { useSession } from '../../session/session';
import { ButtonLink } from '../../ui/button';
import { ListError, ListStatus } from '../../ui/list-status';
import { PageTitle } from '../../ui/page-title';
import { HeaderCell, ResponsiveTable, TableBody, TableHead } from '../../ui/responsive-table';
import { Pagination } from '../../ui/pagination';
import { SearchBox } from '../../ui/search-box';
import { toast } from '../../ui/toast';
import { useNoticeToasts } from '../../ui/use-notice-toasts';
import { DeactivateUserDialog } from './deactivate-user-dialog';
import { EditUserModal } from './edit-user-modal';
import { StatusFilterChips } from '../../ui/status-filter-chips';
import { UserRow } from './user-row';
import { defineUsersActors } from './users-actors';

const usersApi = { fetchUserPage, updateUser, setUserStatus, resendActivation };
const machine = recordEditorMachine.provide({ actors: defineUsersActors({ api: usersApi }) });

/** /users ('User Management'): a thin view of the record editor with the users' input. */
export default function UsersPage() {
  return <UsersScreen />;
}

/**
 * The Users page of the signed-in admin's organisation, or (`scopedClientId`, the superuser's
 * /clients/{id}/users, 'Client Users Management') of the client named.
 */
export function UsersScreen({ scopedClientId }: { scopedClientId?: string }) {
  const me = useSession((c) => (c.user ? { id: c.user.id, role: c.user.role, clientId: c.user.client_id } : null));
  // The routes are for signed-in admins and superusers only, so the person is known here.
  if (!me) return null;
  // A new client's page starts afresh (its own list), not with the last one's.
  return <Users key={scopedClientId ?? ''} meId={me.id} role={me.role} clientId={scopedClientId ?? me.clientId} scoped={!!scopedClientId} />;
}

function Users({ meId, role, clientId, scoped }: { meId: string; role: User['role']; clientId: string | null; scoped: boolean }) {
  const scopedMachine = useMemo(
    () => (scoped && clientId ? recordEditorMachine.provide({ actors: defineUsersActors({ api: usersApi, clientId }) }) : machine),
    [scoped, clientId],
  );
  const admin = useActorRef(scopedMachine, { input: usersAdminInput(meId) });
  useNoticeToasts(admin);
  const departments = useOrganisationDepartments(() => toast.error(DEPARTMENTS_FETCH_FAILED), scoped ? (clientId ?? undefined) : undefined);
  const listRef = useSelector(admin, (s) => s.children.list)!;
  const list = useSelector(listRef, (s) => pagerView<User>(s), samePagerView);
  const status = useSelector(listRef, (s) => ((s.context.filters.status as StatusFilter | undefined) ?? 'all'));

  // Spec: a superuser registers admins, an admin registers users, each into the organisation shown.
  const newRole = role === 'superuser' ? 'admin' : 'user';
  const register = `/register?role=${newRole}${clientId ? `&client_id=${encodeURIComponent(clientId)}` : ''}`;
  const busy = list.loading || list.searching;

  return (
    <div className="mx-auto max-w-6xl space-y-6 p-6 md:p-10">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <PageTitle>{scoped ? 'Client Users Management' : 'User Management'}</PageTitle>
        <ButtonLink variant="primary" href={register}>
          <UserPlus aria-hidden className="size-4" /> {role === 'superuser' ? 'Register Admin User' : 'Add New User'}
        </ButtonLink>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SearchBox
          label="Search users"
          placeholder="Search by name or email..."
          value={list.searchText}
          onChange={(text) => admin.send(userEvents.search(text))}
          className="w-full max-w-md"
        />
        <StatusFilterChips value={status} onChange={(next) => admin.send(userEvents.filter(next))} />
      </div>
      <ListError message={list.error} onRetry={() => admin.send(userEvents.retry())} busy={busy} />
      <ResponsiveTable
        aria-label="Users"
        aria-busy={busy}
        footer={
          <ListStatus hasItems={list.items.length > 0} busy={busy} loadingLabel="Loading users" empty={list.error ? null : 'No users found'} />
        }
      >
        <TableHead>
          <HeaderCell>Name</HeaderCell>
          <HeaderCell>Role</HeaderCell>
          <HeaderCell>Verification</HeaderCell>
          <HeaderCell>Status</HeaderCell>
          <HeaderCell className="text-right">Actions</HeaderCell>
        </TableHead>
        <TableBody>
          {list.items.map((u) => (
            <UserRow key={u.id} user={u} meId={meId} admin={admin} departments={departments} />
          ))}
        </TableBody>
      </ResponsiveTable>
      <Pagination page={list.page} totalPages={list.totalPages} onPageChange={(page) => admin.send(userEvents.goTo(page))} />
      <EditUserModal admin={admin} departments={departments} />
      <DeactivateUserDialog admin={admin} />
    </div>
  );
}
