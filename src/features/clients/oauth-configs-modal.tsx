import { useMemo, useRef } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { ArrowLeft, Pencil, Plus, Trash2 } from 'lucide-react';
import type { ActorRefFrom } from 'xstate';
import type { Client } from '../../../contract/clients';
import type { OAuthConfig } from '../../../contract/oauth-configs';
import { OAUTH_LIST_UNAVAILABLE, oauthDeleteConfirm } from '../../../contract/oauth-configs-constants';
import { oauthConfigsInput, oauthEvents, type OAuthDeletion, type OAuthDraft } from '../../../machines/oauth-configs.machine';
import { pagerView, samePagerView } from '../../../machines/pager.machine';
import { recordEditorMachine, type RecordEditorMachine } from '../../../machines/record-editor.machine';
import { createOAuthConfig, deleteOAuthConfig, fetchOAuthConfigs, updateOAuthConfig } from '../../api/oauth-configs';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorBanner } from '../../ui/error-banner';
import { ListError, ListStatus } from '../../ui/list-status';
import { Modal } from '../../ui/modal';
import { Cell, HeaderCell, ResponsiveTable, Row, RowHeader, TableBody, TableHead } from '../../ui/responsive-table';
import { useNoticeToasts } from '../../ui/use-notice-toasts';
import { defineOAuthConfigsActors } from './oauth-configs-actors';
import { OAUTH_FORM_ID, OAuthConfigForm, PROVIDER_LABELS } from './oauth-config-form';

const api = { fetchOAuthConfigs, createOAuthConfig, updateOAuthConfig, deleteOAuthConfig };
type Editor = ActorRefFrom<RecordEditorMachine>;

/**
 * The OAuth Configurations modal of a client ('OAuth Configurations - {client name}'): a thin view of the record
 * editor with the OAuth input (machines/oauth-configs.machine.ts). Its views are the editor's states: the list
 * (browsing, with the delete question over it), and the add and edit forms (editing, saving). Open while mounted;
 * `onClose` unmounts it.
 */
export function OAuthConfigsModal({ client, onClose }: { client: Client; onClose: () => void }) {
  const machine = useMemo(() => recordEditorMachine.provide({ actors: defineOAuthConfigsActors({ api, clientId: client.id }) }), [client.id]);
  const editor = useActorRef(machine, { input: oauthConfigsInput });
  useNoticeToasts(editor);
  const state = useSelector(
    editor,
    (s) => ({
      form: s.matches('editing') || s.matches('saving'),
      saving: s.matches('saving'),
      draft: s.context.draft as OAuthDraft | null,
    }),
    shallowEqual,
  );
  const draft = state.draft;
  const title = `OAuth Configurations - ${client.client_name}`;
  const back = () => editor.send({ type: 'form.cancel' });

  return (
    <Modal
      isOpen
      // Closing while a save runs would lose its answer: the modal waits for it.
      onOpenChange={(open) => !open && !state.saving && onClose()}
      isDismissable={!state.saving}
      title={title}
      size="3xl"
      footer={
        state.form && draft ? (
          <>
            <Button isDisabled={state.saving} onPress={back}>
              <ArrowLeft aria-hidden className="size-4" /> Back to List
            </Button>
            <Button variant="primary" type="submit" form={OAUTH_FORM_ID} isPending={state.saving}>
              {draft.mode === 'add' ? (state.saving ? 'Creating...' : 'Create Configuration') : state.saving ? 'Updating...' : 'Update Configuration'}
            </Button>
          </>
        ) : undefined
      }
    >
      {state.form && draft ? (
        <div className="space-y-4">
          <h3 className="text-base font-semibold text-gray-900 dark:text-gray-50">
            {draft.mode === 'add' ? 'Add OAuth Configuration' : `Edit ${draft.provider ? PROVIDER_LABELS[draft.provider] : ''} Configuration`}
          </h3>
          <OAuthConfigForm editor={editor} draft={draft} />
        </div>
      ) : (
        <ConfigList editor={editor} />
      )}
      <DeleteQuestion editor={editor} />
    </Modal>
  );
}

function ConfigList({ editor }: { editor: Editor }) {
  const listRef = useSelector(editor, (s) => s.children.list)!;
  const list = useSelector(listRef, (s) => pagerView<OAuthConfig>(s), samePagerView);
  const busy = list.loading;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-gray-700 dark:text-gray-300">Sign-in providers this client's people may use. Secrets are stored encrypted and shown masked.</p>
        <Button variant="primary" size="sm" onPress={() => editor.send(oauthEvents.add())} isDisabled={list.refused === 503}>
          <Plus aria-hidden className="size-4" /> Add Configuration
        </Button>
      </div>
      {list.refused === 503 && <ErrorBanner message={OAUTH_LIST_UNAVAILABLE} />}
      <ListError message={list.error} onRetry={() => editor.send(oauthEvents.retry())} busy={busy} />
      <ResponsiveTable
        aria-label="OAuth configurations"
        aria-busy={busy}
        footer={
          <ListStatus
            hasItems={list.items.length > 0}
            busy={busy}
            loadingLabel="Loading OAuth configurations"
            empty={list.error || list.refused ? null : 'No OAuth configurations yet'}
          />
        }
      >
        <TableHead>
          <HeaderCell>Provider</HeaderCell>
          <HeaderCell>Client ID</HeaderCell>
          <HeaderCell>Tenant ID</HeaderCell>
          <HeaderCell>Client Secret</HeaderCell>
          <HeaderCell className="text-right">Actions</HeaderCell>
        </TableHead>
        <TableBody>
          {list.items.map((config) => {
            const provider = PROVIDER_LABELS[config.provider];
            return (
              <Row key={config.id}>
                <RowHeader className="font-medium text-gray-900 dark:text-gray-50">{provider}</RowHeader>
                <Cell label="Client ID" className="break-all">
                  {config.provider_client_id}
                </Cell>
                <Cell label="Tenant ID" className="break-all">
                  {config.tenant_id ?? <span className="text-gray-600 dark:text-gray-400">None</span>}
                </Cell>
                <Cell label="Client Secret">
                  <code className="font-mono">{config.provider_client_secret_masked}</code>
                </Cell>
                <Cell label="Actions" className="text-right">
                  <div className="flex justify-end gap-2">
                    <Button size="sm" aria-label={`Edit ${provider} configuration`} onPress={() => editor.send(oauthEvents.edit(config))}>
                      <Pencil aria-hidden className="size-4" /> Edit
                    </Button>
                    <Button size="sm" aria-label={`Delete ${provider} configuration`} onPress={() => editor.send(oauthEvents.remove(config))}>
                      <Trash2 aria-hidden className="size-4" /> Delete
                    </Button>
                  </div>
                </Cell>
              </Row>
            );
          })}
        </TableBody>
      </ResponsiveTable>
    </div>
  );
}

function DeleteQuestion({ editor }: { editor: Editor }) {
  const state = useSelector(
    editor,
    (s) => ({
      open: s.matches('confirming') || s.matches('acting'),
      deleting: s.matches('acting'),
      target: s.context.target as OAuthDeletion | null,
    }),
    shallowEqual,
  );
  // The dialog keeps its question while it closes (the machine has already let go of the target).
  const last = useRef(state.target);
  if (state.target) last.current = state.target;

  return (
    <ConfirmDialog
      isOpen={state.open}
      onOpenChange={(open) => !open && editor.send({ type: 'act.cancel' })}
      onConfirm={() => editor.send({ type: 'act.confirm' })}
      isPending={state.deleting}
      title="Delete OAuth Configuration"
      message={last.current ? oauthDeleteConfirm(PROVIDER_LABELS[last.current.provider]) : ''}
      confirmLabel="Delete"
    />
  );
}
