import { assign, emit, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import type { LdapSettings, LdapSettingsRequest } from '../contract/ldap-settings';
import {
  LDAP_FILTER_PARENTHESES,
  LDAP_FILTER_PLACEHOLDER,
  LDAP_MODE_REQUIRED,
  LDAP_PLACEHOLDERS,
  LDAP_SEARCH_BASE_REQUIRED,
  LDAP_SERVICE_SECRET_REQUIRED,
  LDAP_SETTINGS_DELETED,
  LDAP_SETTINGS_FETCH_FAILED,
  LDAP_SETTINGS_SAVE_FAILED,
  LDAP_SETTINGS_SAVED,
  LDAP_TEMPLATE_PLACEHOLDER,
  LDAP_URL_INVALID,
  LDAP_URL_REQUIRED,
} from '../contract/ldap-settings-constants';
import { serverDetailOf } from './load-failure';
import { notice } from './notice';
import { notProvided } from './not-provided';

/**
 * A client's Directory (LDAP) settings, edited by the superuser from the Clients page (issue 31).
 *
 * `loading` (tag `busy`): the stored settings are read; none stored (404) is an empty form. `failed`: 'Failed to
 * fetch directory settings' (or the server's sentence) with Try again. `editing`: `ldap.change` sets fields and
 * clears their sentences; `ldap.save` checks the fields (the server's own rules, contract/ldap-settings.ts) and
 * goes on only when they pass; `ldap.remove` (only when settings are stored) deletes them. `saving` and
 * `removing` (tag `busy`) end in `done` (final: the modal closes) with a success toast, or back in `editing` with
 * the server's sentence. The service account password is write-only: blank keeps the stored one.
 */

export type LdapMode = 'template' | 'search';

export interface LdapDraft {
  url: string;
  mode: LdapMode;
  bindDnTemplate: string;
  searchBase: string;
  searchFilter: string;
  serviceBindDn: string;
  /** Typed only to set or change it; blank keeps the stored one. */
  servicePassword: string;
  tlsRejectUnauthorized: boolean;
}

export type LdapField = Exclude<keyof LdapDraft, 'mode' | 'tlsRejectUnauthorized'>;
export type LdapErrors = Partial<Record<LdapField, string>>;

export interface LdapSettingsContext {
  clientId: string;
  draft: LdapDraft;
  stored: boolean;
  hasServicePassword: boolean;
  errors: LdapErrors;
  error: string | null;
}

export type LdapSettingsEvent =
  | { type: 'ldap.change'; patch: Partial<LdapDraft> }
  | { type: 'ldap.save' }
  | { type: 'ldap.remove' }
  | { type: 'ldap.retry' }
  | DoneActorEvent<LdapSettings | null, 'fetchSettings'>
  | ErrorActorEvent<unknown, 'fetchSettings'>
  | DoneActorEvent<LdapSettings, 'saveSettings'>
  | ErrorActorEvent<unknown, 'saveSettings'>
  | DoneActorEvent<void, 'removeSettings'>
  | ErrorActorEvent<unknown, 'removeSettings'>;

export const emptyLdapDraft: LdapDraft = {
  url: '',
  mode: 'template',
  bindDnTemplate: '',
  searchBase: '',
  searchFilter: '',
  serviceBindDn: '',
  servicePassword: '',
  tlsRejectUnauthorized: true,
};

function draftOf(settings: LdapSettings | null): LdapDraft {
  if (!settings) return emptyLdapDraft;
  return {
    url: settings.url,
    mode: settings.search_filter ? 'search' : 'template',
    bindDnTemplate: settings.bind_dn_template ?? '',
    searchBase: settings.search_base ?? '',
    searchFilter: settings.search_filter ?? '',
    serviceBindDn: settings.service_bind_dn ?? '',
    servicePassword: '',
    tlsRejectUnauthorized: settings.tls_reject_unauthorized,
  };
}

const hasPlaceholder = (text: string) => LDAP_PLACEHOLDERS.some((p) => text.includes(p));

/** The same rules as the server's schema, so a mistake is shown before anything is sent. */
export function ldapErrors(draft: LdapDraft, hasServicePassword: boolean): LdapErrors {
  const errors: LdapErrors = {};
  const url = draft.url.trim();
  if (url === '') errors.url = LDAP_URL_REQUIRED;
  else if (!/^ldaps?:\/\/[^\s/]+/i.test(url)) errors.url = LDAP_URL_INVALID;
  if (draft.mode === 'template') {
    const template = draft.bindDnTemplate.trim();
    if (template === '') errors.bindDnTemplate = LDAP_MODE_REQUIRED;
    else if (!hasPlaceholder(template)) errors.bindDnTemplate = LDAP_TEMPLATE_PLACEHOLDER;
  } else {
    const filter = draft.searchFilter.trim();
    if (filter === '') errors.searchFilter = LDAP_MODE_REQUIRED;
    else if (!hasPlaceholder(filter)) errors.searchFilter = LDAP_FILTER_PLACEHOLDER;
    else if (!/^\(.*\)$/.test(filter)) errors.searchFilter = LDAP_FILTER_PARENTHESES;
    if (draft.searchBase.trim() === '') errors.searchBase = LDAP_SEARCH_BASE_REQUIRED;
    if (draft.serviceBindDn.trim() !== '' && draft.servicePassword === '' && !hasServicePassword) {
      errors.servicePassword = LDAP_SERVICE_SECRET_REQUIRED;
    }
  }
  return errors;
}

/** PUT's body: only the chosen way's fields; the password only when typed (absent keeps the stored one). */
export function ldapRequestOf(draft: LdapDraft): LdapSettingsRequest {
  const search = draft.mode === 'search';
  const serviceDn = search ? draft.serviceBindDn.trim() : '';
  return {
    url: draft.url.trim(),
    bind_dn_template: search ? null : draft.bindDnTemplate.trim(),
    search_base: search ? draft.searchBase.trim() : null,
    search_filter: search ? draft.searchFilter.trim() : null,
    service_bind_dn: serviceDn || null,
    ...(serviceDn === '' ? { service_bind_password: null } : draft.servicePassword !== '' ? { service_bind_password: draft.servicePassword } : {}),
    tls_reject_unauthorized: draft.tlsRejectUnauthorized,
  };
}

const failureText = (error: unknown, fallback: string) => serverDetailOf(error) ?? fallback;

export const ldapSettingsMachine = setup({
  types: {
    context: {} as LdapSettingsContext,
    events: {} as LdapSettingsEvent,
    input: {} as { clientId: string },
    emitted: {} as ReturnType<typeof notice>,
    tags: {} as 'busy',
    children: {} as { fetchSettings: 'fetchSettings'; saveSettings: 'saveSettings'; removeSettings: 'removeSettings' },
  },
  actors: {
    /** Resolves null when the client has no settings yet (the server's 404): an empty form. */
    fetchSettings: notProvided<LdapSettings | null, { clientId: string }>('fetchSettings'),
    saveSettings: notProvided<LdapSettings, { clientId: string; body: LdapSettingsRequest }>('saveSettings'),
    removeSettings: notProvided<void, { clientId: string }>('removeSettings'),
  },
  guards: {
    draftIsValid: ({ context }) => Object.keys(ldapErrors(context.draft, context.hasServicePassword)).length === 0,
    isStored: ({ context }) => context.stored,
  },
}).createMachine({
  id: 'ldapSettings',
  context: ({ input }) => ({
    clientId: input.clientId,
    draft: emptyLdapDraft,
    stored: false,
    hasServicePassword: false,
    errors: {},
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      description: "The client's stored directory settings are being read.",
      tags: 'busy',
      invoke: {
        id: 'fetchSettings',
        src: 'fetchSettings',
        input: ({ context }) => ({ clientId: context.clientId }),
        onDone: {
          target: 'editing',
          actions: assign(({ event }) => ({
            draft: draftOf(event.output),
            stored: event.output !== null,
            hasServicePassword: event.output?.has_service_password ?? false,
          })),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => failureText(event.error, LDAP_SETTINGS_FETCH_FAILED) }) },
      },
    },
    failed: {
      description: "The settings could not be read: 'Failed to fetch directory settings' with Try again.",
      on: { 'ldap.retry': { target: 'loading', actions: assign({ error: null }) } },
    },
    editing: {
      description: 'The superuser edits the URL, the way people are found and the TLS check.',
      on: {
        'ldap.change': {
          actions: assign(({ context, event }) => {
            const errors = { ...context.errors };
            for (const field of Object.keys(event.patch)) delete errors[field as LdapField];
            return { draft: { ...context.draft, ...event.patch }, errors };
          }),
        },
        'ldap.save': [
          { guard: 'draftIsValid', target: 'saving', actions: assign({ errors: {}, error: null }) },
          { actions: assign({ errors: ({ context }) => ldapErrors(context.draft, context.hasServicePassword) }) },
        ],
        'ldap.remove': { guard: 'isStored', target: 'removing', actions: assign({ error: null }) },
      },
    },
    saving: {
      description: 'The settings are being saved (the service password sealed by the server).',
      tags: 'busy',
      invoke: {
        id: 'saveSettings',
        src: 'saveSettings',
        input: ({ context }) => ({ clientId: context.clientId, body: ldapRequestOf(context.draft) }),
        onDone: { target: 'done', actions: emit(notice('success', LDAP_SETTINGS_SAVED)) },
        onError: { target: 'editing', actions: assign({ error: ({ event }) => failureText(event.error, LDAP_SETTINGS_SAVE_FAILED) }) },
      },
    },
    removing: {
      description: 'The stored settings are being removed.',
      tags: 'busy',
      invoke: {
        id: 'removeSettings',
        src: 'removeSettings',
        input: ({ context }) => ({ clientId: context.clientId }),
        onDone: { target: 'done', actions: emit(notice('success', LDAP_SETTINGS_DELETED)) },
        onError: { target: 'editing', actions: assign({ error: ({ event }) => failureText(event.error, LDAP_SETTINGS_SAVE_FAILED) }) },
      },
    },
    done: { type: 'final', description: 'Saved or removed: the dialog closes with a toast.' },
  },
});

export type LdapSettingsMachine = typeof ldapSettingsMachine;
