import { useRef } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { CLIENT_FORM_STATUSES, CLIENT_TYPES } from '../../../contract/clients-constants';
import { PACKAGES_LOAD_FAILED } from '../../../contract/subscriptions-constants';
import { authTypeLocked, authTypesOffered, clientEvents, type ClientDraft } from '../../../machines/clients-list.machine';
import { FORM_ERROR, type RecordEditorMachine } from '../../../machines/record-editor.machine';
import type { SubscriptionErrors } from '../../../machines/subscription-rules';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { ErrorBanner } from '../../ui/error-banner';
import { Modal } from '../../ui/modal';
import { Select } from '../../ui/select';
import { TextField } from '../../ui/text-field';
import { SubscriptionFields } from './subscription-fields';
import { usePackages } from './use-packages';

const label = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const AUTH_TYPE_LABELS: Record<string, string> = { email: 'Email', ldap: 'LDAP' };
const sectionTitle = 'text-sm font-semibold uppercase tracking-wide text-gray-700 dark:text-gray-300';

/**
 * Register New Client and Edit Client: one thin view of the record editor's `editing` and `saving` states on the
 * Clients page, by the draft's kind.
 */
export function ClientFormModal({ editor }: { editor: ActorRefFrom<RecordEditorMachine> }) {
  const state = useSelector(
    editor,
    (s) => ({
      open: s.matches('editing') || s.matches('saving'),
      saving: s.matches('saving'),
      draft: s.context.draft as ClientDraft | null,
      errors: s.context.errors,
    }),
    shallowEqual,
  );
  // The dialog keeps its fields while it closes (the machine has already let go of the draft).
  const lastDraft = useRef(state.draft);
  if (state.draft) lastDraft.current = state.draft;
  const draft = lastDraft.current;
  const registering = draft?.kind === 'register';
  const submit = () => editor.send({ type: 'form.submit' });
  const cancel = () => editor.send({ type: 'form.cancel' });
  const busyLabel = registering ? 'Registering...' : 'Updating...';

  return (
    <Modal
      isOpen={state.open}
      onOpenChange={(open) => !open && !state.saving && cancel()}
      isDismissable={!state.saving}
      title={registering ? 'Register New Client' : 'Edit Client'}
      size="2xl"
      footer={
        <>
          <Button isDisabled={state.saving} onPress={cancel}>
            Cancel
          </Button>
          <Button variant="primary" isPending={state.saving} onPress={submit}>
            {state.saving ? busyLabel : registering ? 'Register Client' : 'Update'}
          </Button>
        </>
      }
    >
      {draft && (
        <form
          className="space-y-6"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          {state.errors[FORM_ERROR] && <ErrorBanner message={state.errors[FORM_ERROR]} />}
          {registering && <SubscriptionSection editor={editor} draft={draft} errors={state.errors} disabled={state.saving} />}
          <section className="space-y-4" aria-labelledby="client-information">
            {registering && (
              <h3 id="client-information" className={sectionTitle}>
                Client Information
              </h3>
            )}
            <ClientFields editor={editor} draft={draft} errors={state.errors} disabled={state.saving} />
          </section>
        </form>
      )}
    </Modal>
  );
}

interface SectionProps {
  editor: ActorRefFrom<RecordEditorMachine>;
  draft: ClientDraft;
  errors: Record<string, string>;
  disabled: boolean;
}

function SubscriptionSection({ editor, draft, errors, disabled }: SectionProps) {
  const { packages, failed, retry } = usePackages();
  return (
    <section className="space-y-4" aria-labelledby="subscription-information">
      <h3 id="subscription-information" className={sectionTitle}>
        Subscription Information
      </h3>
      {failed && (
        <div className="space-y-2">
          <ErrorBanner message={PACKAGES_LOAD_FAILED} />
          <Button size="sm" onPress={retry}>
            Try again
          </Button>
        </div>
      )}
      <SubscriptionFields
        values={draft.subscription!}
        errors={errors as SubscriptionErrors}
        packages={packages ?? []}
        isDisabled={disabled}
        onChange={(field, value) =>
          editor.send(
            clientEvents.change({ field, value, ...(field === 'packageId' ? { packageType: packages?.find((p) => p.id === value)?.type ?? null } : {}) }),
          )
        }
      />
    </section>
  );
}

function ClientFields({ editor, draft, errors, disabled }: SectionProps) {
  const change = (patch: Parameters<typeof clientEvents.change>[0]) => editor.send(clientEvents.change(patch));
  const authTypes = authTypesOffered(draft);
  const locked = authTypeLocked(draft);
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        label="Client Name"
        isRequired
        autoFocus={draft.kind === 'edit'}
        value={draft.name}
        onChange={(name) => change({ name })}
        errorMessage={errors.name}
        isDisabled={disabled}
        className="sm:col-span-2"
      />
      <TextField label="Email" type="email" isRequired value={draft.email} onChange={(email) => change({ email })} errorMessage={errors.email} isDisabled={disabled} />
      <TextField label="Phone" type="tel" value={draft.phone} onChange={(phone) => change({ phone })} errorMessage={errors.phone} isDisabled={disabled} />
      <TextField
        label="Origin URL"
        type="url"
        isRequired={draft.kind === 'register'}
        placeholder="https://"
        value={draft.origin}
        onChange={(origin) => change({ origin })}
        errorMessage={errors.origin}
        isDisabled={disabled}
        className="sm:col-span-2"
      />
      <Select
        label="Status"
        items={CLIENT_FORM_STATUSES.map((s) => ({ id: s, label: label(s) }))}
        selectedKey={draft.status}
        onSelectionChange={(key) => key && change({ status: key as ClientDraft['status'] })}
        isRequired
        isDisabled={disabled}
      />
      <Select
        label="Auth Type"
        items={authTypes.map((a) => ({ id: a, label: AUTH_TYPE_LABELS[a] ?? a }))}
        selectedKey={draft.authType}
        onSelectionChange={(key) => key && change({ authType: key as ClientDraft['authType'] })}
        isRequired
        isDisabled={disabled || locked}
        description={
          locked
            ? 'Needs a subscription in force to change.'
            : draft.kind === 'register' && !draft.packageType
              ? 'Choose a package: standard allows email, premium email or LDAP.'
              : undefined
        }
      />
      {draft.kind === 'edit' && (
        <Select
          label="Client Type"
          items={CLIENT_TYPES.map((t) => ({ id: t, label: label(t) }))}
          selectedKey={draft.clientType}
          onSelectionChange={(key) => key && change({ clientType: key as ClientDraft['clientType'] })}
          isRequired
          isDisabled={disabled}
        />
      )}
    </div>
  );
}
