import { describe, it } from 'vitest';
import { expect } from './support/expect';
import type { EventFrom, SnapshotFrom } from 'xstate';
import type { LdapSettings, LdapSettingsRequest } from '../../contract/ldap-settings';
import {
  LDAP_FILTER_PLACEHOLDER,
  LDAP_MODE_REQUIRED,
  LDAP_SEARCH_BASE_REQUIRED,
  LDAP_SERVICE_SECRET_REQUIRED,
  LDAP_SETTINGS_DELETED,
  LDAP_SETTINGS_FETCH_FAILED,
  LDAP_SETTINGS_SAVE_FAILED,
  LDAP_SETTINGS_SAVED,
  LDAP_TEMPLATE_PLACEHOLDER,
  LDAP_URL_INVALID,
  LDAP_URL_REQUIRED,
} from '../../contract/ldap-settings-constants';
import {
  emptyLdapDraft,
  ldapErrors,
  ldapRequestOf,
  ldapSettingsMachine,
  type LdapDraft,
} from '../../machines/ldap-settings.machine';
import { loadFailure } from '../../machines/load-failure';
import type { Notice } from '../../machines/notice';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof ldapSettingsMachine>;
type Ev = EventFrom<typeof ldapSettingsMachine>;

const stored: LdapSettings = {
  client_id: 'c1',
  url: 'ldaps://dir.acme.test',
  bind_dn_template: null,
  search_base: 'dc=acme,dc=test',
  search_filter: '(mail={email})',
  service_bind_dn: 'cn=svc,dc=acme,dc=test',
  has_service_password: true,
  tls_reject_unauthorized: true,
  updated_at: '2026-11-28T00:00:00.000Z',
};
const refused = loadFailure('HTTP 503', 'OAuth configurations cannot be stored: the server has no OAUTH_SECRET_KEY. Ask the operator to set it.');
const dropped = loadFailure('Network Error', null);

const calls = { fetch: 0, saves: [] as Array<{ clientId: string; body: LdapSettingsRequest }>, removes: 0, notices: [] as Notice[] };
let prev: Snap | null = null;

const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output, actorId: id }) as unknown as Ev;
const failed = (id: string, error: unknown) => ({ type: `xstate.error.actor.${id}`, error, actorId: id }) as unknown as Ev;

function eventsFor(s: Snap): Ev[] {
  const always: Ev[] = [{ type: 'ldap.retry' }, { type: 'ldap.save' }, { type: 'ldap.remove' }];
  if (s.matches('loading')) return [...always, done('fetchSettings', stored), done('fetchSettings', null), failed('fetchSettings', dropped)];
  if (s.matches('editing')) {
    return [
      ...always,
      { type: 'ldap.change', patch: { url: 'ldap://dir.acme.test', mode: 'template', bindDnTemplate: 'uid={username},dc=acme,dc=test' } },
      { type: 'ldap.change', patch: { url: '' } },
    ];
  }
  if (s.matches('saving')) return [...always, done('saveSettings', stored), failed('saveSettings', refused), failed('saveSettings', dropped)];
  if (s.matches('removing')) return [...always, done('removeSettings', undefined), failed('removeSettings', dropped)];
  return always;
}

let savesBefore = 0;
const check = (fn: (s: Snap, e: (Ev & { error?: unknown }) | null, p: Snap | null) => void) => (s: Snap, e: { type: string } | null) => {
  const p = prev;
  expect(s.hasTag('busy')).toBe(s.matches('loading') || s.matches('saving') || s.matches('removing'));
  fn(s, e as (Ev & { error?: unknown }) | null, p);
  prev = s;
  savesBefore = calls.saves.length;
};

runModelTest({
  name: 'ldap-settings',
  machine: ldapSettingsMachine,
  testMachine: () =>
    ldapSettingsMachine.provide({
      actors: {
        fetchSettings: pendingActor<LdapSettings | null, { clientId: string }>(() => calls.fetch++),
        saveSettings: pendingActor<LdapSettings, { clientId: string; body: LdapSettingsRequest }>((i) => calls.saves.push(i)),
        removeSettings: pendingActor<void, { clientId: string }>(() => calls.removes++),
      },
    }),
  onActor: (actor) => {
    calls.fetch = 0;
    calls.saves = [];
    calls.removes = 0;
    calls.notices = [];
    prev = null;
    savesBefore = 0;
    actor.on('notice.show', (n) => calls.notices.push(n));
  },
  inputs: [{ clientId: 'c1' }],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, s.context.stored, s.context.draft.url, Object.keys(s.context.errors).length > 0, s.context.error !== null]),
  simpleKey: (s) => JSON.stringify([s.value, s.context.stored]),
  edgeKeys: true,
  checks: {
    loading: check((s) => {
      expect(calls.fetch).toBeGreaterThan(0);
      expect(s.context.error).toBeNull();
    }),
    failed: check((s) => expect(s.context.error).toBe(LDAP_SETTINGS_FETCH_FAILED)),
    editing: check((s, e, p) => {
      if (e?.type === 'xstate.done.actor.fetchSettings') {
        const found = (e as unknown as { output: LdapSettings | null }).output;
        expect(s.context.stored).toBe(found !== null);
        // The stored password is never in the form: blank keeps it.
        expect(s.context.draft.servicePassword).toBe('');
        if (found) expect(s.context.draft).toMatchObject({ mode: 'search', url: found.url, searchFilter: found.search_filter });
        else expect(s.context.draft).toEqual(emptyLdapDraft);
      }
      if (e?.type === 'ldap.save') {
        // Refused by the checks: each wrong field has its sentence, nothing was sent.
        expect(s.context.errors).toEqual(ldapErrors(s.context.draft, s.context.hasServicePassword));
        expect(Object.keys(s.context.errors).length).toBeGreaterThan(0);
        expect(calls.saves.length).toBe(savesBefore);
      }
      if (e?.type === 'xstate.error.actor.saveSettings') {
        expect(s.context.error).toBe(e.error === refused ? refused.serverDetail : LDAP_SETTINGS_SAVE_FAILED);
        expect(s.context.draft).toEqual(p?.context.draft);
      }
      if (e?.type === 'xstate.error.actor.removeSettings') expect(s.context.error).toBe(LDAP_SETTINGS_SAVE_FAILED);
      if (e?.type === 'ldap.change') expect(s.context.errors).not.toHaveProperty('url');
    }),
    saving: check((s) => {
      expect(calls.saves.at(-1)).toEqual({ clientId: 'c1', body: ldapRequestOf(s.context.draft) });
      expect(s.context.errors).toEqual({});
    }),
    removing: check((s) => {
      expect(s.context.stored).toBe(true);
      expect(calls.removes).toBeGreaterThan(0);
    }),
    done: check((s, _event, p) => {
      expect(s.status).toBe('done');
      // One toast, on arrival: the saved or removed sentence; a final state takes nothing more.
      expect(calls.notices).toHaveLength(1);
      if (p?.matches('removing')) expect(calls.notices[0].text).toBe(LDAP_SETTINGS_DELETED);
      if (p?.matches('saving')) expect(calls.notices[0].text).toBe(LDAP_SETTINGS_SAVED);
    }),
  },
});

describe('directory settings form (examples)', () => {
  const draft = (patch: Partial<LdapDraft>): LdapDraft => ({ ...emptyLdapDraft, ...patch });

  it("says what is wrong in the server's words", () => {
    expect(ldapErrors(draft({}), false)).toEqual({ url: LDAP_URL_REQUIRED, bindDnTemplate: LDAP_MODE_REQUIRED });
    expect(ldapErrors(draft({ url: 'http://x', bindDnTemplate: 'uid=fixed' }), false)).toEqual({
      url: LDAP_URL_INVALID,
      bindDnTemplate: LDAP_TEMPLATE_PLACEHOLDER,
    });
    expect(ldapErrors(draft({ url: 'ldap://x', mode: 'search', searchFilter: '(mail=x)' }), false)).toEqual({
      searchFilter: LDAP_FILTER_PLACEHOLDER,
      searchBase: LDAP_SEARCH_BASE_REQUIRED,
    });
    const service = draft({ url: 'ldap://x', mode: 'search', searchBase: 'dc=x', searchFilter: '(mail={email})', serviceBindDn: 'cn=svc' });
    expect(ldapErrors(service, false)).toEqual({ servicePassword: LDAP_SERVICE_SECRET_REQUIRED });
    expect(ldapErrors(service, true)).toEqual({});
  });

  it('sends only the chosen way, and the password only when typed', () => {
    const search = draft({ url: ' ldap://x ', mode: 'search', searchBase: 'dc=x', searchFilter: '(mail={email})', serviceBindDn: 'cn=svc', bindDnTemplate: 'uid={username}' });
    expect(ldapRequestOf(search)).toEqual({
      url: 'ldap://x',
      bind_dn_template: null,
      search_base: 'dc=x',
      search_filter: '(mail={email})',
      service_bind_dn: 'cn=svc',
      tls_reject_unauthorized: true,
    });
    expect(ldapRequestOf({ ...search, servicePassword: 'pw' }).service_bind_password).toBe('pw');
    expect(ldapRequestOf({ ...search, serviceBindDn: '' }).service_bind_password).toBeNull();
    expect(ldapRequestOf(draft({ url: 'ldap://x', bindDnTemplate: 'uid={username}', searchFilter: '(x={email})' }))).toMatchObject({
      bind_dn_template: 'uid={username}',
      search_filter: null,
      search_base: null,
    });
  });
});
