import { useEffect, useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise, type ActorRefFrom } from 'xstate';
import type { Client } from '../../../contract/clients';
import type { LdapSettings, LdapSettingsRequest } from '../../../contract/ldap-settings';
import { ldapSettingsMachine, type LdapDraft, type LdapMode } from '../../../machines/ldap-settings.machine';
import { fetchLdapSettings, removeLdapSettings, saveLdapSettings } from '../../api/ldap-settings';
import { withAnswerStatus } from '../../lib/answer-status';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { Checkbox } from '../../ui/checkbox';
import { ErrorBanner } from '../../ui/error-banner';
import { Modal } from '../../ui/modal';
import { RetryAlert } from '../../ui/retry-alert';
import { Select } from '../../ui/select';
import { Spinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { useNoticeToasts } from '../../ui/use-notice-toasts';

type Editor = ActorRefFrom<typeof ldapSettingsMachine>;

const MODES: Array<{ id: LdapMode; label: string }> = [
  { id: 'template', label: 'DN template' },
  { id: 'search', label: 'Directory search' },
];
const FORM_ID = 'ldap-settings-form';

/**
 * A client's Directory (LDAP) settings ('Directory Settings - {client name}'): a thin view of
 * machines/ldap-settings.machine.ts. Used at sign-in while the client has auth type LDAP under a premium
 * subscription in force. Open while mounted; it closes itself once saved or removed.
 */
export function LdapSettingsModal({ client, onClose }: { client: Client; onClose: () => void }) {
  const machine = useMemo(
    () =>
      ldapSettingsMachine.provide({
        actors: {
          fetchSettings: fromPromise<LdapSettings | null, { clientId: string }>(({ input, signal }) => withAnswerStatus(fetchLdapSettings(input.clientId, signal))),
          saveSettings: fromPromise<LdapSettings, { clientId: string; body: LdapSettingsRequest }>(({ input }) => withAnswerStatus(saveLdapSettings(input.clientId, input.body))),
          removeSettings: fromPromise<void, { clientId: string }>(({ input }) => withAnswerStatus(removeLdapSettings(input.clientId))),
        },
      }),
    [],
  );
  const editor = useActorRef(machine, { input: { clientId: client.id } });
  useNoticeToasts(editor);
  const state = useSelector(
    editor,
    (s) => ({
      loading: s.matches('loading'),
      failed: s.matches('failed'),
      form: s.matches('editing') || s.matches('saving') || s.matches('removing'),
      busy: s.hasTag('busy'),
      saving: s.matches('saving'),
      removing: s.matches('removing'),
      done: s.status === 'done',
      stored: s.context.stored,
      canRemove: s.can({ type: 'ldap.remove' }),
      error: s.context.error,
    }),
    shallowEqual,
  );
  useEffect(() => {
    if (state.done) onClose();
  }, [state.done, onClose]);

  return (
    <Modal
      isOpen={!state.done}
      // Closing while a save runs would lose its answer: the modal waits for it.
      onOpenChange={(open) => !open && !state.busy && onClose()}
      isDismissable={!state.busy}
      title={`Directory Settings - ${client.client_name}`}
      size="2xl"
      footer={
        state.form ? (
          <>
            {state.stored && (
              <Button variant="danger" className="sm:mr-auto" isDisabled={!state.canRemove || state.busy} isPending={state.removing} onPress={() => editor.send({ type: 'ldap.remove' })}>
                {state.removing ? 'Removing...' : 'Remove Directory'}
              </Button>
            )}
            <Button isDisabled={state.busy} onPress={onClose}>
              Cancel
            </Button>
            <Button variant="primary" type="submit" form={FORM_ID} isPending={state.saving} isDisabled={state.busy && !state.saving}>
              {state.saving ? 'Saving...' : 'Save Settings'}
            </Button>
          </>
        ) : undefined
      }
    >
      {state.loading && (
        <div className="flex justify-center py-8">
          <Spinner label="Loading directory settings" />
        </div>
      )}
      {state.failed && state.error && <RetryAlert message={state.error} onRetry={() => editor.send({ type: 'ldap.retry' })} />}
      {state.form && <LdapForm editor={editor} error={state.error} disabled={state.busy} />}
    </Modal>
  );
}

function LdapForm({ editor, error, disabled }: { editor: Editor; error: string | null; disabled: boolean }) {
  const { draft, errors, hasServicePassword } = useSelector(
    editor,
    (s) => ({ draft: s.context.draft, errors: s.context.errors, hasServicePassword: s.context.hasServicePassword }),
    shallowEqual,
  );
  const change = (patch: Partial<LdapDraft>) => editor.send({ type: 'ldap.change', patch });
  const search = draft.mode === 'search';

  return (
    <form
      id={FORM_ID}
      className="space-y-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        editor.send({ type: 'ldap.save' });
      }}
    >
      <p className="text-sm text-gray-700 dark:text-gray-300">
        Used at sign-in while this client has auth type LDAP under a premium subscription. People sign in with their
        e-mail and directory password; a first sign-in from the client's origin URL creates their account.
      </p>
      {error && <ErrorBanner message={error} />}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Directory URL"
          isRequired
          autoFocus
          placeholder="ldaps://directory.example.com"
          value={draft.url}
          onChange={(url) => change({ url })}
          errorMessage={errors.url}
          isDisabled={disabled}
          className="sm:col-span-2"
        />
        <Select
          label="Find people by"
          items={MODES}
          selectedKey={draft.mode}
          onSelectionChange={(key) => key && change({ mode: key as LdapMode })}
          isDisabled={disabled}
          className="sm:col-span-2"
        />
        {search ? (
          <>
            <TextField
              label="Search Base"
              isRequired
              placeholder="ou=people,dc=example,dc=com"
              value={draft.searchBase}
              onChange={(searchBase) => change({ searchBase })}
              errorMessage={errors.searchBase}
              isDisabled={disabled}
            />
            <TextField
              label="Search Filter"
              isRequired
              placeholder="(mail={email})"
              description="{email} or {username} is replaced by what the person types."
              value={draft.searchFilter}
              onChange={(searchFilter) => change({ searchFilter })}
              errorMessage={errors.searchFilter}
              isDisabled={disabled}
            />
            <TextField
              label="Service Account DN"
              placeholder="cn=tanya,ou=services,dc=example,dc=com"
              description="Optional: for directories that do not allow anonymous search."
              value={draft.serviceBindDn}
              onChange={(serviceBindDn) => change({ serviceBindDn })}
              errorMessage={errors.serviceBindDn}
              isDisabled={disabled}
            />
            <TextField
              label="Service Account Password"
              type="password"
              autoComplete="new-password"
              placeholder={hasServicePassword ? 'Stored: leave blank to keep it' : ''}
              value={draft.servicePassword}
              onChange={(servicePassword) => change({ servicePassword })}
              errorMessage={errors.servicePassword}
              isDisabled={disabled || draft.serviceBindDn.trim() === ''}
            />
          </>
        ) : (
          <TextField
            label="Bind DN Template"
            isRequired
            placeholder="uid={username},ou=people,dc=example,dc=com"
            description="{username} is the part of the e-mail before @; use {email} for Active Directory."
            value={draft.bindDnTemplate}
            onChange={(bindDnTemplate) => change({ bindDnTemplate })}
            errorMessage={errors.bindDnTemplate}
            isDisabled={disabled}
            className="sm:col-span-2"
          />
        )}
      </div>
      <Checkbox isSelected={draft.tlsRejectUnauthorized} onChange={(tlsRejectUnauthorized) => change({ tlsRejectUnauthorized })} isDisabled={disabled}>
        Verify the directory's TLS certificate (ldaps://)
      </Checkbox>
    </form>
  );
}
