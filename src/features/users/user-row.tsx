import { useSelector } from '@xstate/react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { MailPlus, Pencil } from 'lucide-react';
import type { ActorRefFrom } from 'xstate';
import type { Department } from '../../../contract/departments';
import type { User } from '../../../contract/user';
import { mayEverAct, type RecordEditorMachine } from '../../../machines/record-editor.machine';
import { userEvents, type UserAct } from '../../../machines/users-admin.machine';
import { shallowEqual } from '../../lib/shallow-equal';
import { Avatar } from '../../ui/avatar';
import { cx } from '../../ui/cx';
import { Spinner } from '../../ui/spinner';
import { Cell, Row, RowHeader } from '../../ui/responsive-table';
import { Switch } from '../../ui/switch';
import { hasUnits } from './edit-user-modal';

const iconButton =
  'flex size-8 cursor-pointer items-center justify-center rounded-md text-gray-700 hover:bg-gray-200 hover:text-gray-900 ' +
  'data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50 dark:text-gray-200 dark:hover:bg-gray-700 dark:hover:text-white';
const badge = 'inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium';
const roleBadge: Record<User['role'], string> = {
  superuser: 'bg-purple-100 text-purple-900 dark:bg-purple-900 dark:text-purple-100',
  admin: 'bg-blue-100 text-blue-900 dark:bg-blue-900 dark:text-blue-100',
  user: 'bg-gray-100 text-gray-800 dark:bg-gray-700 dark:text-gray-100',
};
const roleName: Record<User['role'], string> = { superuser: 'Superuser', admin: 'Admin', user: 'User' };

/** One person of the Users table: who they are, role, verification, the status switch and the row's actions. */
export function UserRow({
  user,
  meId,
  admin,
  departments,
}: {
  user: User;
  meId: string;
  admin: ActorRefFrom<RecordEditorMachine>;
  departments: Department[] | null;
}) {
  const edit = () => userEvents.edit(user, meId, hasUnits(departments, user.department_id));
  // The machine says what may be done now (one's own row is never switched; one change at a time).
  const { mayEverSwitch, canSwitch, canResend, canEdit, running } = useSelector(
    admin,
    (s) => {
      const act = s.context.target as UserAct | null;
      const switchStatus = userEvents.switchStatus(user);
      return {
        mayEverSwitch: mayEverAct(s, switchStatus.target),
        canSwitch: s.can(switchStatus),
        canResend: s.can(userEvents.resend(user.id)),
        canEdit: s.can(edit()),
        // The act this row is busy with (a question waiting is not busy yet).
        running: s.hasTag('busy') && act?.userId === user.id ? act.kind : null,
      };
    },
    shallowEqual,
  );
  const switching = running === 'status';
  const resending = running === 'resend';
  const active = user.status === 'active';

  return (
    <Row>
      <RowHeader className="font-normal">
        <div className="flex items-center gap-3">
          <Avatar name={user.name} size="sm" />
          <div className="min-w-0">
            <p className="truncate font-medium text-gray-900 dark:text-gray-100">{user.name}</p>
            <p className="truncate text-xs text-gray-700 dark:text-gray-300">{user.email}</p>
          </div>
        </div>
      </RowHeader>
      <Cell label="Role">
        <span className={cx(badge, roleBadge[user.role])}>{roleName[user.role]}</span>
      </Cell>
      <Cell label="Verification">
        <span
          className={cx(
            badge,
            user.verified
              ? 'bg-green-100 text-green-900 dark:bg-green-900 dark:text-green-100'
              : 'bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100',
          )}
        >
          {user.verified ? 'Verified' : 'Unverified'}
        </span>
      </Cell>
      <Cell label="Status">
        <div className="flex items-center gap-2">
          <Switch
            isSelected={active}
            // One's own row is never switched: disabled. While a change runs the others stay focusable (read-only),
            // so a keyboard user's focus stays on the switch and Space works again once the server has answered.
            isDisabled={!mayEverSwitch}
            isReadOnly={!canSwitch}
            onChange={() => admin.send(userEvents.switchStatus(user))}
          >
            <span className="sr-only">{`Status of ${user.name}`}</span>
            <span aria-hidden="true" className="w-14 text-xs text-gray-700 dark:text-gray-300">
              {active ? 'Active' : 'Inactive'}
            </span>
          </Switch>
          {switching && <Spinner className="size-4" label={`Updating status of ${user.name}`} />}
        </div>
      </Cell>
      <Cell label="Actions">
        <div className="flex justify-end gap-1">
          {!user.verified && (
            <AriaButton
              aria-label={`Resend verification email to ${user.name}`}
              isDisabled={!canResend}
              isPending={resending}
              className={iconButton}
              onPress={() => admin.send(userEvents.resend(user.id))}
            >
              {resending ? <Spinner className="size-4" /> : <MailPlus aria-hidden className="size-4" />}
            </AriaButton>
          )}
          <AriaButton
            aria-label={`Edit user ${user.name}`}
            isDisabled={!canEdit}
            className={iconButton}
            onPress={() => admin.send(edit())}
          >
            <Pencil aria-hidden className="size-4" />
          </AriaButton>
        </div>
      </Cell>
    </Row>
  );
}
