import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { OAUTH_PROVIDERS, type OAuthProvider } from '../../../contract/oauth-configs-constants';
import { oauthEvents, type OAuthDraft } from '../../../machines/oauth-configs.machine';
import type { RecordEditorMachine } from '../../../machines/record-editor.machine';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { Select } from '../../ui/select';
import { TextField } from '../../ui/text-field';

export const PROVIDER_LABELS: Record<OAuthProvider, string> = { microsoft: 'Microsoft', google: 'Google' };
const PROVIDERS = OAUTH_PROVIDERS.map((id) => ({ id, label: PROVIDER_LABELS[id] }));

/** The form's id, so the modal's footer buttons submit it. */
export const OAUTH_FORM_ID = 'oauth-config-form';

/**
 * The add and edit forms of the OAuth Configurations modal: a thin view of the record editor's `editing` and
 * `saving` states. On edit the stored secret shows only as its mask; 'Change Secret' opens the secret field (the
 * other fields are disabled meanwhile) and 'Cancel Secret Change' keeps the stored one.
 */
export function OAuthConfigForm({ editor, draft }: { editor: ActorRefFrom<RecordEditorMachine>; draft: OAuthDraft }) {
  const state = useSelector(
    editor,
    (s) => ({ saving: s.matches('saving'), errors: s.context.errors }),
    shallowEqual,
  );
  const lockedBySecret = draft.mode === 'edit' && draft.editingSecret;
  const disabled = state.saving || lockedBySecret;

  return (
    <form
      id={OAUTH_FORM_ID}
      className="space-y-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        editor.send({ type: 'form.submit' });
      }}
    >
      <Select
        label="Provider"
        placeholder="Select a provider"
        items={PROVIDERS}
        selectedKey={draft.provider}
        onSelectionChange={(key) => editor.send(oauthEvents.pickProvider(key as OAuthProvider | null))}
        isRequired={draft.mode === 'add'}
        isDisabled={disabled}
        errorMessage={state.errors.provider}
      />
      <TextField
        label="Client ID"
        value={draft.clientId}
        onChange={(text) => editor.send(oauthEvents.typeClientId(text))}
        isRequired
        isDisabled={disabled}
        autoComplete="off"
        errorMessage={state.errors.clientId}
      />
      <TextField
        label="Tenant ID"
        value={draft.tenantId}
        onChange={(text) => editor.send(oauthEvents.typeTenantId(text))}
        isDisabled={disabled}
        autoComplete="off"
        description="Optional: the Microsoft Entra tenant."
      />
      {draft.mode === 'add' || draft.editingSecret ? (
        <div className="space-y-2">
          <TextField
            label={draft.mode === 'add' ? 'Client Secret' : 'New Client Secret'}
            type="password"
            value={draft.secret}
            onChange={(text) => editor.send(oauthEvents.typeSecret(text))}
            isRequired
            isDisabled={state.saving}
            autoComplete="new-password"
            autoFocus={draft.mode === 'edit'}
            errorMessage={state.errors.secret}
            description={draft.mode === 'edit' ? 'Provider, Client ID and Tenant ID are locked while the secret is changed.' : undefined}
          />
          {draft.mode === 'edit' && (
            <Button size="sm" isDisabled={state.saving} onPress={() => editor.send(oauthEvents.cancelSecretEdit())}>
              Cancel Secret Change
            </Button>
          )}
        </div>
      ) : (
        <div className="space-y-1.5">
          <p className="text-sm font-medium text-gray-800 dark:text-gray-100">Client Secret</p>
          <div className="flex flex-wrap items-center gap-3">
            <code
              aria-label="Stored client secret (masked)"
              className="rounded-md bg-gray-100 px-2.5 py-1.5 font-mono text-sm text-gray-800 dark:bg-gray-800 dark:text-gray-100"
            >
              {draft.maskedSecret}
            </code>
            <Button size="sm" isDisabled={state.saving} onPress={() => editor.send(oauthEvents.editSecret())}>
              Change Secret
            </Button>
          </div>
        </div>
      )}
    </form>
  );
}
