import { useSelector } from '@xstate/react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { BarChart3, Eye, KeyRound, Network, Pencil, Users } from 'lucide-react';
import type { ActorRefFrom } from 'xstate';
import type { Client } from '../../../contract/clients';
import { clientEvents, type ClientAct } from '../../../machines/clients-list.machine';
import type { RecordEditorMachine } from '../../../machines/record-editor.machine';
import { shallowEqual } from '../../lib/shallow-equal';
import { cx } from '../../ui/cx';
import { Cell, Row, RowHeader } from '../../ui/responsive-table';
import { Spinner } from '../../ui/spinner';
import { Switch } from '../../ui/switch';
import { Tooltip } from '../../ui/tooltip';

/** The dialogs a row opens (the page shows one at a time). */
export type ClientDialog = 'details' | 'usage' | 'oauth' | 'ldap';

const iconButton =
  'flex size-8 cursor-pointer items-center justify-center rounded-md text-gray-700 hover:bg-gray-200 hover:text-gray-900 ' +
  'data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50 dark:text-gray-200 dark:hover:bg-gray-700 dark:hover:text-white ' +
  'data-[focus-visible]:outline-2 data-[focus-visible]:outline-offset-2 data-[focus-visible]:outline-blue-600 dark:data-[focus-visible]:outline-blue-400';
const badge = 'inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium';
const muted = 'text-xs text-gray-700 dark:text-gray-300';
const label = (text: string) => (text === 'ldap' ? 'LDAP' : text === 'sso' ? 'SSO' : text.charAt(0).toUpperCase() + text.slice(1));
const authBadge: Record<string, string> = {
  email: 'bg-blue-100 text-blue-900 dark:bg-blue-900 dark:text-blue-100',
  ldap: 'bg-purple-100 text-purple-900 dark:bg-purple-900 dark:text-purple-100',
  sso: 'bg-teal-100 text-teal-900 dark:bg-teal-900 dark:text-teal-100',
  local: 'bg-gray-100 text-gray-800 dark:bg-gray-700 dark:text-gray-100',
};

function Action({ name, icon: Icon, isDisabled, onPress }: { name: string; icon: typeof Eye; isDisabled?: boolean; onPress(): void }) {
  return (
    <Tooltip content={name.split(' for ')[0]!}>
      <AriaButton aria-label={name} isDisabled={isDisabled} className={iconButton} onPress={onPress}>
        <Icon aria-hidden className="size-4" />
      </AriaButton>
    </Tooltip>
  );
}

/** One client of the Clients table: name and origin, contact, type, auth type, the status switch and the row's actions. */
export function ClientRow({
  client,
  editor,
  onOpen,
  onViewUsers,
}: {
  client: Client;
  editor: ActorRefFrom<RecordEditorMachine>;
  onOpen(dialog: ClientDialog, client: Client): void;
  onViewUsers(client: Client): void;
}) {
  const { canSwitch, canEdit, switching } = useSelector(
    editor,
    (s) => ({
      canSwitch: s.can(clientEvents.switchStatus(client)),
      canEdit: s.can(clientEvents.edit(client)),
      switching: s.hasTag('busy') && (s.context.target as ClientAct | null)?.clientId === client.id,
    }),
    shallowEqual,
  );
  const { email, phone } = client.contact_info;
  const active = client.status === 'active';
  const name = client.client_name;

  return (
    <Row>
      <RowHeader className="font-normal">
        <p className="break-words font-medium text-gray-900 dark:text-gray-100">{name}</p>
        <p className={cx(muted, 'break-all')}>{client.origin ?? 'No origin URL'}</p>
      </RowHeader>
      <Cell label="Contact">
        {email || phone ? (
          <div className="min-w-0">
            <p className="break-all text-gray-900 dark:text-gray-100">{email}</p>
            <p className={muted}>{phone ?? 'No phone'}</p>
          </div>
        ) : (
          <span className={muted}>No contact info</span>
        )}
      </Cell>
      <Cell label="Type">{label(client.client_type)}</Cell>
      <Cell label="Auth Type">
        <span className={cx(badge, authBadge[client.auth_type] ?? authBadge.local)}>{label(client.auth_type)}</span>
      </Cell>
      <Cell label="Status">
        <div className="flex items-center gap-2">
          <Switch
            isSelected={active}
            // While a change runs the switch stays focusable (read-only, not disabled), so a keyboard user's focus
            // stays on it and Space works again once the server has answered.
            isReadOnly={!canSwitch}
            onChange={() => editor.send(clientEvents.switchStatus(client))}
          >
            <span className="sr-only">{`Status of ${name}`}</span>
            <span aria-hidden="true" className="w-14 text-xs text-gray-700 dark:text-gray-300">
              {label(client.status)}
            </span>
          </Switch>
          {switching && <Spinner className="size-4" label={`Updating status of ${name}`} />}
        </div>
      </Cell>
      <Cell label="Actions">
        <div className="flex flex-wrap justify-end gap-1">
          <Action name={`View Usage for ${name}`} icon={BarChart3} onPress={() => onOpen('usage', client)} />
          <Action name={`View Details for ${name}`} icon={Eye} onPress={() => onOpen('details', client)} />
          <Action name={`Edit Client ${name}`} icon={Pencil} isDisabled={!canEdit} onPress={() => editor.send(clientEvents.edit(client))} />
          <Action name={`OAuth Config for ${name}`} icon={KeyRound} onPress={() => onOpen('oauth', client)} />
          <Action name={`Directory Settings for ${name}`} icon={Network} onPress={() => onOpen('ldap', client)} />
          <Action name={`View Users for ${name}`} icon={Users} onPress={() => onViewUsers(client)} />
        </div>
      </Cell>
    </Row>
  );
}
