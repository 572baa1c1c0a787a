import type { CreateOAuthConfigRequest, OAuthConfig, UpdateOAuthConfigRequest } from '../contract/oauth-configs';
import {
  OAUTH_CLIENT_ID_REQUIRED,
  OAUTH_CLIENT_SECRET_REQUIRED,
  OAUTH_CREATE_FAILED,
  OAUTH_CREATED,
  OAUTH_DELETE_FAILED,
  OAUTH_DELETED,
  OAUTH_FETCH_FAILED,
  OAUTH_PROVIDER_REQUIRED,
  OAUTH_UPDATE_FAILED,
  OAUTH_UPDATED,
  type OAuthProvider,
} from '../contract/oauth-configs-constants';
import { MAX_PAGE_SIZE, type PagerInput } from './pager.machine';
import {
  deleteRecord,
  type ActRecordEvent,
  type ChangeRecordEvent,
  type Draft,
  type EditRecordEvent,
  type FieldErrors,
  type RecordEditorEvent,
  type RecordEditorInput,
} from './record-editor.machine';

/**
 * The OAuth Configurations modal of a client (administration spec sections 2, 3, 4 "OAuth modal views", 5 "OAuth
 * add/edit", 7, 8): the client's sign-in provider settings. The modal's machine is the shared record editor
 * (machines/record-editor.machine.ts) with `oauthConfigsInput` and `oauthEvents`; its views are its states:
 *
 * - list: `browsing` (and `confirming`/`acting` over it): the table and 'Add Configuration'. All of a client's
 *   configurations come in one page (one per provider). The server refuses with 503 when it has no OAUTH_SECRET_KEY
 *   (or it does not open the stored secrets): a quiet refusal of the list (`refused` 503), which the view says in
 *   the server's words; any other failure toasts 'Failed to fetch OAuth configurations'.
 * - add and edit: `editing`/`saving` with a draft whose `mode` tells them apart; 'Back to List' is `form.cancel`.
 *   Add needs a provider, a client ID and a secret; edit needs a client ID, and a secret only while the secret is
 *   being edited (`editingSecret`). While it is, provider, client ID and tenant ID are disabled (`rules.change`
 *   ignores them) and the secret edit can be cancelled (the typed secret is dropped). Create sends tenant_id null
 *   when empty; an edit sends only the non-empty fields, and the secret only when it was edited. A created one
 *   reads the list again; an edited one is put in place with the server's copy (its new mask).
 * - delete: asked first ('Are you sure you want to delete the {provider} OAuth configuration? ...'), then the list
 *   read again; one already gone (404, from another tab) is the same outcome.
 *
 * The secret is write-only: the draft holds only what is typed, never the stored one (the list shows its mask).
 */

export const oauthConfigsListInput: PagerInput = {
  pageSize: MAX_PAGE_SIZE,
  mode: 'replace',
  messages: { load: OAUTH_FETCH_FAILED, loadMore: OAUTH_FETCH_FAILED },
  quietStatuses: [503],
};

/** What the add and edit forms hold. */
export interface OAuthDraft {
  mode: 'add' | 'edit';
  /** The configuration edited (null when adding). */
  configId: string | null;
  provider: OAuthProvider | null;
  tenantId: string;
  clientId: string;
  /** What is typed as the new secret ('' when it is not being edited). */
  secret: string;
  /** The secret is being typed: add always; edit after 'Change Secret' until it is cancelled. */
  editingSecret: boolean;
  /** The stored secret's mask (edit), shown read-only. */
  maskedSecret: string | null;
}

/** What the `save` slot is asked for. */
export type SaveOAuthRequest =
  | { kind: 'create'; body: CreateOAuthConfigRequest }
  | { kind: 'update'; configId: string; body: UpdateOAuthConfigRequest };

/** What the `act` slot is asked to do: delete this configuration (`provider`: for the question). */
export interface OAuthDeletion {
  configId: string;
  provider: OAuthProvider;
}

/** The form's rules, in the spec's words (section 5). */
export function oauthDraftErrors(draft: OAuthDraft): FieldErrors | null {
  const errors: FieldErrors = {};
  if (draft.mode === 'add' && !draft.provider) errors.provider = OAUTH_PROVIDER_REQUIRED;
  if (draft.clientId.trim() === '') errors.clientId = OAUTH_CLIENT_ID_REQUIRED;
  if (draft.editingSecret && draft.secret.trim() === '') errors.secret = OAUTH_CLIENT_SECRET_REQUIRED;
  return Object.keys(errors).length ? errors : null;
}

/** The call a draft makes: create with tenant_id null when empty; update with only the non-empty fields. */
export function saveOAuthRequestOf(draft: OAuthDraft): SaveOAuthRequest {
  const tenant = draft.tenantId.trim();
  const clientId = draft.clientId.trim();
  if (draft.mode === 'add') {
    return {
      kind: 'create',
      body: { provider: draft.provider!, tenant_id: tenant || null, provider_client_id: clientId, provider_client_secret: draft.secret },
    };
  }
  const body: UpdateOAuthConfigRequest = {};
  if (draft.provider) body.provider = draft.provider;
  if (tenant) body.tenant_id = tenant;
  if (clientId) body.provider_client_id = clientId;
  if (draft.editingSecret && draft.secret) body.provider_client_secret = draft.secret;
  return { kind: 'update', configId: draft.configId!, body };
}

/** What the form's fields change: while the secret is edited the other fields are disabled. */
export function changeOAuthDraft(draft: OAuthDraft, patch: Partial<OAuthDraft>): OAuthDraft {
  const next = { ...draft };
  if (!draft.editingSecret || draft.mode === 'add') {
    if (patch.provider !== undefined) next.provider = patch.provider;
    if (patch.tenantId !== undefined) next.tenantId = patch.tenantId;
    if (patch.clientId !== undefined) next.clientId = patch.clientId;
  }
  if (patch.editingSecret !== undefined && draft.mode === 'edit') {
    next.editingSecret = patch.editingSecret;
    // Starting or cancelling the secret edit starts from nothing typed.
    next.secret = '';
  }
  if (patch.secret !== undefined && next.editingSecret) next.secret = patch.secret;
  return next;
}

const asOAuth = (draft: Draft) => draft as unknown as OAuthDraft;

export const oauthConfigsInput: RecordEditorInput = {
  list: oauthConfigsListInput,
  rules: {
    errors: (draft) => oauthDraftErrors(asOAuth(draft)),
    change: (draft, patch) => changeOAuthDraft(asOAuth(draft), patch as Partial<OAuthDraft>) as unknown as Draft,
    request: (draft) => saveOAuthRequestOf(asOAuth(draft)),
  },
  act: { goneIsDone: true },
};

type ListEvent<T extends RecordEditorEvent['type']> = Extract<RecordEditorEvent, { type: T }>;
const change = (patch: Partial<OAuthDraft>): ChangeRecordEvent => ({ type: 'record.change', patch: patch as Draft });

/** The modal's events, with the spec's words for each change. */
export const oauthEvents = {
  retry: (): ListEvent<'list.retry'> => ({ type: 'list.retry' }),
  /** 'Add Configuration': the add form, empty. */
  add: (): EditRecordEvent => {
    const draft: OAuthDraft = { mode: 'add', configId: null, provider: null, tenantId: '', clientId: '', secret: '', editingSecret: true, maskedSecret: null };
    return { type: 'record.edit', draft: draft as unknown as Draft, plan: { saved: OAUTH_CREATED, failed: OAUTH_CREATE_FAILED, then: 'refetch' } };
  },
  /** The edit form of `config`: its fields, the secret not being edited. */
  edit: (config: Pick<OAuthConfig, 'id' | 'provider' | 'tenant_id' | 'provider_client_id' | 'provider_client_secret_masked'>): EditRecordEvent => {
    const draft: OAuthDraft = {
      mode: 'edit',
      configId: config.id,
      provider: config.provider,
      tenantId: config.tenant_id ?? '',
      clientId: config.provider_client_id,
      secret: '',
      editingSecret: false,
      maskedSecret: config.provider_client_secret_masked,
    };
    return { type: 'record.edit', draft: draft as unknown as Draft, plan: { saved: OAUTH_UPDATED, failed: OAUTH_UPDATE_FAILED, then: 'upsert' } };
  },
  pickProvider: (provider: OAuthProvider | null) => change({ provider }),
  typeTenantId: (tenantId: string) => change({ tenantId }),
  typeClientId: (clientId: string) => change({ clientId }),
  typeSecret: (secret: string) => change({ secret }),
  /** 'Change Secret' on the edit form. */
  editSecret: () => change({ editingSecret: true, secret: '' }),
  /** Cancels the secret edit: the stored secret is kept. */
  cancelSecretEdit: () => change({ editingSecret: false, secret: '' }),
  /** Delete, asked first. */
  remove: (config: Pick<OAuthConfig, 'id' | 'provider'>): ActRecordEvent =>
    deleteRecord({ configId: config.id, provider: config.provider } satisfies OAuthDeletion, { deleted: OAUTH_DELETED, failed: OAUTH_DELETE_FAILED }),
};
