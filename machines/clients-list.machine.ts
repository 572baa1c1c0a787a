import { clientEmail, type Client, type RegisterClientRequest, type UpdateClientRequest } from '../contract/clients';
import {
  authTypesFor,
  CLIENT_EMAIL_REQUIRED,
  CLIENT_NAME_MAX_LENGTH,
  CLIENT_NAME_REQUIRED,
  CLIENT_NAME_TOO_LONG,
  CLIENT_ORIGIN_INVALID,
  CLIENT_ORIGIN_MAX_LENGTH,
  CLIENT_ORIGIN_REQUIRED,
  CLIENT_PAGE_SIZE,
  CLIENT_PHONE_INVALID,
  CLIENT_PHONE_MAX_LENGTH,
  CLIENT_REGISTER_FAILED,
  CLIENT_REGISTERED,
  CLIENT_SEARCH_DEBOUNCE_MS,
  CLIENT_STATUS_UPDATE_FAILED,
  CLIENT_STATUS_UPDATED,
  CLIENT_UPDATE_FAILED,
  CLIENT_UPDATED,
  CLIENTS_FETCH_FAILED,
  type AuthType,
  type ClientType,
} from '../contract/clients-constants';
import type { PagerInput } from './pager.machine';
import type { ActRecordEvent, ChangeRecordEvent, Draft, EditRecordEvent, RecordEditorEvent, RecordEditorInput } from './record-editor.machine';
import {
  defaultSubscriptionValues,
  toSubscriptionPayload,
  validateSubscription,
  withFieldChange,
  type SubscriptionField,
  type SubscriptionValues,
} from './subscription-rules';

/**
 * The superuser's Clients page ('Client Management', administration spec sections 2 "Clients page", "Register New
 * Client modal", "Edit Client modal", 4, 5, 8, 9): the shared record editor (machines/record-editor.machine.ts) with
 * `clientsListInput` and `clientEvents`, as the Users page is.
 *
 * The list: 10 a page, search on name and e-mail after 500 ms of quiet, the status filter All / Active / Inactive
 * (a new search or filter starts at page 1: the pager does that).
 * - The status switch is an act (the opposite status): the row changes only once the server says so (its copy is put
 *   in place), so a refusal leaves it as it was, with 'Failed to update client status'.
 * - Edit Client and Register New Client are the same dialog flow (`record.edit`) with a draft of each kind: the rules
 *   are checked before any call (the server checks them again), a refusal keeps what was typed with the server's
 *   sentence, else the spec's. Register's package decides the auth types offered (standard: email; premium: email or
 *   ldap), and a package that does not allow the chosen one resets it to email; Edit's auth type follows the
 *   subscription in force (`activePackage`): none, and it cannot change; standard forces email.
 */

export const clientListInput: PagerInput = {
  pageSize: CLIENT_PAGE_SIZE,
  mode: 'replace',
  search: { minLength: 1, debounceMs: CLIENT_SEARCH_DEBOUNCE_MS },
  messages: { load: CLIENTS_FETCH_FAILED, loadMore: CLIENTS_FETCH_FAILED },
};

export type ClientStatusFilter = 'all' | 'active' | 'inactive';
type FormStatus = 'active' | 'inactive';

/** What the Register New Client and Edit Client dialogs hold. */
export interface ClientDraft {
  kind: 'register' | 'edit';
  /** The client edited; null when registering. */
  clientId: string | null;
  name: string;
  email: string;
  phone: string;
  origin: string;
  status: FormStatus;
  authType: AuthType;
  clientType: ClientType;
  /** Edit: the package type of the subscription in force, null without one (then the auth type cannot change). */
  activePackage: string | null;
  /** Register: the first subscription's five fields, and the chosen package's type (null: none chosen). */
  subscription: SubscriptionValues | null;
  packageType: string | null;
  /** Register: the expiry was changed by hand (a changed start no longer moves it). */
  expiryTouched: boolean;
}

/** What the `save` slot is asked for: the registration, or the edit of one client. */
export type SaveClientRequest = { kind: 'register'; body: RegisterClientRequest } | { kind: 'edit'; clientId: string; body: UpdateClientRequest };

/** What the `act` slot is asked to do: switch a client to `status`. */
export type ClientAct = { kind: 'status'; clientId: string; status: FormStatus };

export const oppositeClientStatus = (status: Client['status']): FormStatus => (status === 'active' ? 'inactive' : 'active');

/** The auth types the dialog offers: by the chosen package (register) or the subscription in force (edit). */
export function authTypesOffered(draft: Pick<ClientDraft, 'kind' | 'packageType' | 'activePackage' | 'authType'>): readonly AuthType[] {
  if (draft.kind === 'register') return authTypesFor(draft.packageType);
  // Without a subscription in force the auth type stays what it is (the selector is disabled).
  return draft.activePackage === null ? [draft.authType] : authTypesFor(draft.activePackage);
}

/** Edit Client's auth type may change only with a subscription in force. */
export const authTypeLocked = (draft: Pick<ClientDraft, 'kind' | 'activePackage'>): boolean => draft.kind === 'edit' && draft.activePackage === null;

const ORIGIN = /^https?:\/\/[^\s/]+/i;

/** The client fields' rules, in the server's words (contract/clients.ts checks the same). */
export function clientFieldErrors(draft: ClientDraft): Record<string, string> {
  const errors: Record<string, string> = {};
  const name = draft.name.trim();
  if (!name) errors.name = CLIENT_NAME_REQUIRED;
  else if (name.length > CLIENT_NAME_MAX_LENGTH) errors.name = CLIENT_NAME_TOO_LONG;
  // The server's own schema, so an address passes here exactly when it passes there.
  const email = clientEmail.safeParse(draft.email);
  if (!email.success) errors.email = email.error.issues[0]?.message ?? CLIENT_EMAIL_REQUIRED;
  if (draft.phone.trim().length > CLIENT_PHONE_MAX_LENGTH) errors.phone = CLIENT_PHONE_INVALID;
  const origin = draft.origin.trim();
  if (!origin && draft.kind === 'register') errors.origin = CLIENT_ORIGIN_REQUIRED;
  else if (origin && (origin.length > CLIENT_ORIGIN_MAX_LENGTH || !ORIGIN.test(origin))) errors.origin = CLIENT_ORIGIN_INVALID;
  return errors;
}

/** Every rule of the dialog: the client's fields, and when registering the subscription's (no overlap: it is the first). */
export function clientDraftErrors(draft: ClientDraft): Record<string, string> | null {
  const errors: Record<string, string> = { ...clientFieldErrors(draft) };
  if (draft.kind === 'register' && draft.subscription) Object.assign(errors, validateSubscription(draft.subscription, []));
  return Object.keys(errors).length ? errors : null;
}

/** A change of the dialog's fields: `patch` holds client fields, or one subscription field (`field`, `value`). */
export interface ClientPatch extends Partial<Pick<ClientDraft, 'name' | 'email' | 'phone' | 'origin' | 'status' | 'authType' | 'clientType'>> {
  field?: SubscriptionField;
  value?: string;
  /** With field 'packageId': the chosen package's type. */
  packageType?: string | null;
}

export function changeClientDraft(draft: ClientDraft, patch: ClientPatch): ClientDraft {
  const { field, value, packageType, ...fields } = patch;
  const next: ClientDraft = { ...draft, ...fields };
  if (fields.authType !== undefined && !authTypesOffered(draft).includes(fields.authType)) next.authType = draft.authType;
  if (field && value !== undefined && draft.subscription) {
    next.subscription = withFieldChange(draft.subscription, field, value, draft.expiryTouched);
    if (field === 'expiryDate') next.expiryTouched = true;
    if (field === 'packageId') {
      next.packageType = packageType ?? null;
      // A package that does not allow the chosen auth type resets it to email (spec section 4).
      if (!authTypesFor(next.packageType).includes(next.authType)) next.authType = 'email';
    }
  }
  return next;
}

/** The request of a draft: names trimmed, empty phone and origin as none, the subscription as the server takes it. */
export function saveClientRequestOf(draft: ClientDraft): SaveClientRequest {
  const contact_info = { email: draft.email.trim(), phone: draft.phone.trim() || null };
  const common = { client_name: draft.name.trim(), contact_info, status: draft.status, auth_type: draft.authType, client_type: draft.clientType };
  if (draft.kind === 'edit') return { kind: 'edit', clientId: draft.clientId!, body: { ...common, origin: draft.origin.trim() || null } };
  return {
    kind: 'register',
    body: { client_data: { ...common, origin: draft.origin.trim() }, subscription_data: toSubscriptionPayload(draft.subscription!) } as RegisterClientRequest,
  };
}

const asClient = (draft: Draft) => draft as unknown as ClientDraft;

/** The record editor's input for the Clients page. */
export const clientsListInput: RecordEditorInput = {
  list: clientListInput,
  // A refused switch says the spec's sentence, whatever the server's (spec section 4).
  act: { serverSentence: false },
  rules: {
    errors: (draft) => clientDraftErrors(asClient(draft)),
    change: (draft, patch) => changeClientDraft(asClient(draft), patch as ClientPatch) as unknown as Draft,
    request: (draft) => saveClientRequestOf(asClient(draft)),
  },
};

type ListEvent<T extends RecordEditorEvent['type']> = Extract<RecordEditorEvent, { type: T }>;

/** The page's events, with the spec's words for each change. */
export const clientEvents = {
  search: (text: string): ListEvent<'list.search'> => ({ type: 'list.search', text }),
  filter: (status: ClientStatusFilter): ListEvent<'list.filter'> => ({ type: 'list.filter', filters: status === 'all' ? {} : { status } }),
  goTo: (page: number): ListEvent<'list.goTo'> => ({ type: 'list.goTo', page }),
  retry: (): ListEvent<'list.retry'> => ({ type: 'list.retry' }),
  /** Register New Client with the form's defaults (status active, auth type email, client type corporate; one year). */
  register: (now: Date): EditRecordEvent => {
    const draft: ClientDraft = {
      kind: 'register',
      clientId: null,
      name: '',
      email: '',
      phone: '',
      origin: '',
      status: 'active',
      authType: 'email',
      clientType: 'corporate',
      activePackage: null,
      subscription: defaultSubscriptionValues([], now),
      packageType: null,
      expiryTouched: false,
    };
    // The list is read again after a registration (spec section 7).
    return { type: 'record.edit', draft: draft as unknown as Draft, plan: { saved: CLIENT_REGISTERED, failed: CLIENT_REGISTER_FAILED, then: 'refetch' } };
  },
  edit: (client: Client): EditRecordEvent => {
    const draft: ClientDraft = {
      kind: 'edit',
      clientId: client.id,
      name: client.client_name,
      email: client.contact_info.email ?? '',
      phone: client.contact_info.phone ?? '',
      origin: client.origin ?? '',
      status: client.status === 'inactive' ? 'inactive' : 'active',
      authType: client.auth_type === 'ldap' ? 'ldap' : 'email',
      clientType: (client.client_type as ClientType) ?? 'corporate',
      activePackage: client.subscription?.package.type ?? null,
      subscription: null,
      packageType: null,
      expiryTouched: false,
    };
    return { type: 'record.edit', draft: draft as unknown as Draft, plan: { saved: CLIENT_UPDATED, failed: CLIENT_UPDATE_FAILED, then: 'upsert' } };
  },
  change: (patch: ClientPatch): ChangeRecordEvent => ({ type: 'record.change', patch: patch as Draft }),
  /** The switch of a row showing `client.status`: to the opposite, at once (spec section 4). */
  switchStatus: (client: Pick<Client, 'id' | 'status'>): ActRecordEvent => ({
    type: 'record.act',
    target: { kind: 'status', clientId: client.id, status: oppositeClientStatus(client.status) } satisfies ClientAct,
    plan: { done: CLIENT_STATUS_UPDATED, failed: CLIENT_STATUS_UPDATE_FAILED, then: 'upsert' },
    confirm: false,
  }),
};
