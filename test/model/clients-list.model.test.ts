import { describe, it } from 'vitest';
import { expect } from './support/expect';
import { createActor, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import type { Client } from '../../contract/clients';
import {
  CLIENT_EMAIL_INVALID,
  CLIENT_EMAIL_REQUIRED,
  CLIENT_NAME_MAX_LENGTH,
  CLIENT_NAME_REQUIRED,
  CLIENT_NAME_TOO_LONG,
  CLIENT_ORIGIN_INVALID,
  CLIENT_ORIGIN_REQUIRED,
  CLIENT_PHONE_INVALID,
  CLIENT_PHONE_MAX_LENGTH,
  CLIENT_REGISTER_FAILED,
  CLIENT_REGISTERED,
  CLIENT_STATUS_UPDATE_FAILED,
  CLIENT_STATUS_UPDATED,
  CLIENT_UPDATE_FAILED,
  CLIENT_UPDATED,
  CLIENTS_FETCH_FAILED,
} from '../../contract/clients-constants';
import {
  EXPIRY_DATE_REQUIRED,
  EXPIRY_NOT_AFTER_START,
  FAIR_USE_INVALID,
  MAX_USERS_INVALID,
  PACKAGE_REQUIRED,
  START_DATE_REQUIRED,
} from '../../contract/subscriptions-constants';
import {
  authTypeLocked,
  authTypesOffered,
  clientDraftErrors,
  clientEvents,
  clientListInput,
  clientsListInput,
  saveClientRequestOf,
  type ClientAct,
  type ClientDraft,
  type SaveClientRequest,
} from '../../machines/clients-list.machine';
import { loadFailure } from '../../machines/load-failure';
import { notice, type Notice } from '../../machines/notice';
import { FORM_ERROR, recordEditorMachine } from '../../machines/record-editor.machine';
import { actOutcomes, recordEditorFakes } from './support/record-editor-fakes';
import { runModelTest } from './support/run-model';
import { clientsListLeavesOut } from './support/record-editor-options';

/** The Clients page's machine: the record editor with the clients' input (its list, the dialog's rules, the switch). */
const clientsListMachine = recordEditorMachine;
type Snap = SnapshotFrom<typeof clientsListMachine>;
type Ev = EventFrom<typeof clientsListMachine>;
const draftOf = (s: Snap) => s.context.draft as unknown as ClientDraft | null;
const actOf = (s: Snap) => s.context.target as unknown as ClientAct | null;

/** A fixed "now": Register's term runs a year from this minute (local time). */
const NOW = new Date(2026, 0, 15, 9, 30);
const START = '2026-01-15T09:30';
const ONE_YEAR_ON = '2027-01-15T09:30';

const subscriptionOf = (type: string): Client['subscription'] => ({
  id: `s-${type}`,
  client_id: 'c1',
  package_id: `p-${type}`,
  package_name: type,
  package: { type, features: [], start_date: '2026-01-01T00:00:00.000Z', end_date: '2027-01-01T00:00:00.000Z' },
  max_users: 5,
  fair_use: 2,
  start_date: '2026-01-01T00:00:00.000Z',
  expire_date: '2027-01-01T00:00:00.000Z',
  status: 'active',
  created_at: '2026-01-01T00:00:00.000Z',
});
const clientOf = (over: Partial<Client> = {}): Client => ({
  id: 'c1',
  client_name: 'Acme Berhad',
  contact_info: { email: 'ops@acme.test', phone: null },
  origin: null,
  status: 'active',
  auth_type: 'email',
  client_type: 'educational',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  subscription: null,
  ...over,
});
/** No subscription in force: Edit's auth type is locked. */
const bare = clientOf();
/** A premium subscription in force, signing in through LDAP: email or ldap offered. */
const premium = clientOf({ id: 'c2', auth_type: 'ldap', origin: 'https://acme.test', subscription: subscriptionOf('premium') });
/** A standard subscription in force: email only. */
const standard = clientOf({ id: 'c3', status: 'inactive', contact_info: { email: 'it@std.test', phone: '+60 3 1234' }, subscription: subscriptionOf('standard') });
const serverCopy = clientOf({ client_name: 'Acme Berhad (server)', status: 'inactive' });

const refused = loadFailure('HTTP 400', 'A client with this name already exists');
const dropped = loadFailure('Network Error', null);

const fakes = recordEditorFakes();
const { rec } = fakes;
const saves = () => rec.saves as SaveClientRequest[];
const acts = () => rec.acts as unknown as ClientAct[];
let prev: Snap | null = null;

function eventsFor(s: Snap): Ev[] {
  const always: Ev[] = [
    clientEvents.search('acme'),
    clientEvents.filter('inactive'),
    clientEvents.filter('all'),
    clientEvents.goTo(2),
    clientEvents.retry(),
    notice('error', CLIENTS_FETCH_FAILED),
  ];
  if (s.matches('browsing')) {
    return [
      ...always,
      clientEvents.switchStatus(bare),
      clientEvents.switchStatus(standard),
      clientEvents.register(NOW),
      clientEvents.edit(bare),
      clientEvents.edit(premium),
      clientEvents.edit(standard),
      { type: 'form.submit' },
      { type: 'act.confirm' },
    ];
  }
  if (s.matches('editing')) {
    return [
      ...always,
      clientEvents.change({ name: '  Globex Sdn Bhd  ' }),
      clientEvents.change({ name: '   ' }),
      clientEvents.change({ email: ' admin@globex.test ' }),
      clientEvents.change({ email: 'not-an-address' }),
      clientEvents.change({ origin: ' https://globex.test ' }),
      clientEvents.change({ phone: '  ', origin: '' }),
      clientEvents.change({ field: 'packageId', value: 'p-premium', packageType: 'premium' }),
      clientEvents.change({ field: 'packageId', value: 'p-standard', packageType: 'standard' }),
      clientEvents.change({ authType: 'ldap' }),
      { type: 'form.submit' },
      { type: 'form.cancel' },
      clientEvents.switchStatus(bare),
    ];
  }
  if (s.matches('saving')) {
    return [
      { type: 'xstate.done.actor.save', output: serverCopy, actorId: 'save' },
      { type: 'xstate.error.actor.save', error: refused, actorId: 'save' },
      { type: 'xstate.error.actor.save', error: dropped, actorId: 'save' },
      { type: 'form.cancel' },
    ] as never[];
  }
  // Acting: the switch answers with the server's copy.
  return [...actOutcomes(serverCopy, refused, dropped), clientEvents.switchStatus(bare), clientEvents.edit(bare)];
}

type Told = EventObject & Record<string, unknown>;

function checkStep(s: Snap, e: { type: string } | null) {
  const p = prev;
  const event = e as ({ type: string; error?: unknown } & Record<string, unknown>) | null;
  const act = actOf(s);
  const draft = draftOf(s);

  expect(rec.listInputs).toEqual([{ ...clientListInput, parent: expect.anything() }]);
  expect(s.hasTag('busy')).toBe(s.matches('saving') || s.matches('acting'));
  expect(draft !== null).toBe(s.matches('editing') || s.matches('saving'));
  expect(act !== null).toBe(s.matches('acting'));
  // The switch never asks first.
  expect(s.matches('confirming')).toBe(false);
  if (s.matches('browsing')) expect(s.can(clientEvents.switchStatus(bare))).toBe(true);
  else expect(s.can(clientEvents.switchStatus(bare))).toBe(false);
  // The auth type offered always holds the chosen one.
  if (draft) expect(authTypesOffered(draft)).toContain(draft.authType);
  if (s.matches('saving') && !p?.matches('saving')) {
    expect(saves().at(-1)).toEqual(saveClientRequestOf(draftOf(p!)!));
    expect(clientDraftErrors(draft!)).toBeNull();
  }
  if (s.matches('acting') && !p?.matches('acting')) expect(acts().at(-1)).toEqual(act);

  const list: Told[] = [];
  const out: Notice[] = [];
  switch (event?.type) {
    case 'list.search':
      list.push({ type: 'pager.search', text: 'acme' });
      break;
    case 'list.filter':
      list.push({ type: 'pager.filter', filters: event.filters as Told });
      break;
    case 'list.goTo':
      list.push({ type: 'pager.goTo', page: 2 });
      break;
    case 'list.retry':
      list.push({ type: 'pager.load' });
      break;
    case 'notice.show':
      out.push(notice('error', CLIENTS_FETCH_FAILED));
      break;
    case 'record.act':
      if (p!.matches('browsing')) {
        // At once, to the opposite of what the row shows.
        expect(s.matches('acting')).toBe(true);
        const target = event.target as ClientAct;
        expect(act).toEqual({ kind: 'status', clientId: target.clientId, status: target.clientId === bare.id ? 'inactive' : 'active' });
      } else expect(s.value).toEqual(p!.value);
      break;
    case 'record.edit':
      if (p!.matches('browsing')) {
        expect(s.context.errors).toEqual({});
        if (draft!.kind === 'register') {
          // Register New Client's defaults.
          expect(draft).toMatchObject({ name: '', email: '', phone: '', origin: '', status: 'active', authType: 'email', clientType: 'corporate' });
          expect(draft!.subscription).toEqual({ packageId: '', maxUsers: '1', fairUse: '1', startDate: START, expiryDate: ONE_YEAR_ON });
          expect(s.context.plan).toEqual({ saved: CLIENT_REGISTERED, failed: CLIENT_REGISTER_FAILED, then: 'refetch' });
        } else {
          const c = [bare, premium, standard].find((x) => x.id === draft!.clientId)!;
          expect(draft).toMatchObject({ name: c.client_name, email: c.contact_info.email, phone: c.contact_info.phone ?? '', origin: c.origin ?? '' });
          expect(draft).toMatchObject({ status: c.status, authType: c.auth_type, clientType: c.client_type, subscription: null });
          expect(draft!.activePackage).toBe(c.subscription?.package.type ?? null);
          expect(authTypeLocked(draft!)).toBe(c.subscription === null);
          expect(s.context.plan).toEqual({ saved: CLIENT_UPDATED, failed: CLIENT_UPDATE_FAILED, then: 'upsert' });
        }
      } else expect(s.value).toEqual(p!.value);
      break;
    case 'record.change': {
      const patch = event.patch as Record<string, unknown>;
      const was = draftOf(p!)!;
      for (const f of ['name', 'email', 'phone', 'origin'] as const) {
        if (f in patch) {
          expect(draft![f]).toBe(patch[f]);
          // Typing clears that field's sentence, and only that one's.
          expect(s.context.errors[f]).toBeUndefined();
        } else expect(s.context.errors[f]).toBe(p!.context.errors[f]);
      }
      if ('authType' in patch) {
        // Locked without a subscription in force; email only with a standard one or without a premium package.
        expect(draft!.authType).toBe(authTypesOffered(was).includes('ldap') ? 'ldap' : was.authType);
        if (was.kind === 'edit' && was.activePackage !== 'premium') expect(draft!.authType).toBe(was.authType);
      }
      if (patch.field === 'packageId') {
        if (was.kind === 'register') {
          expect(draft!.subscription!.packageId).toBe(patch.value);
          expect(draft!.packageType).toBe(patch.packageType);
          // A package that does not allow LDAP resets it to email.
          expect(draft!.authType).toBe(patch.packageType === 'premium' ? was.authType : 'email');
        } else expect(draft).toEqual(was);
      }
      break;
    }
    case 'form.submit':
      if (p!.matches('editing') && s.matches('editing')) {
        // The rules before any call, each in its sentence.
        expect(s.context.errors).toEqual(clientDraftErrors(draftOf(p!)!));
      }
      break;
    case 'form.cancel':
      if (p!.matches('editing')) expect(s.matches('browsing')).toBe(true);
      else expect(s.value).toEqual(p!.value);
      break;
    case 'xstate.done.actor.save':
      if (draftOf(p!)!.kind === 'register') {
        list.push({ type: 'pager.refetch' });
        out.push(notice('success', CLIENT_REGISTERED));
      } else {
        list.push({ type: 'item.upsert', item: serverCopy, insert: false });
        out.push(notice('success', CLIENT_UPDATED));
      }
      break;
    case 'xstate.error.actor.save': {
      const failed = draftOf(p!)!.kind === 'register' ? CLIENT_REGISTER_FAILED : CLIENT_UPDATE_FAILED;
      const sentence = event.error === refused ? refused.serverDetail! : failed;
      out.push(notice('error', sentence));
      // Said in the dialog too, which keeps what was typed.
      expect(s.context.errors[FORM_ERROR]).toBe(sentence);
      expect(draft).toEqual(draftOf(p!));
      break;
    }
    case 'xstate.done.actor.act':
      list.push({ type: 'item.upsert', item: serverCopy, insert: false });
      out.push(notice('success', CLIENT_STATUS_UPDATED));
      break;
    case 'xstate.error.actor.act':
      // The spec's sentence whatever the server said; nothing goes to the list: the row stays as it was.
      out.push(notice('error', CLIENT_STATUS_UPDATE_FAILED));
      expect(s.matches('browsing')).toBe(true);
      break;
  }
  fakes.expectStep(list, out);
  prev = s;
}

const draftKey = (s: Snap) => {
  const d = draftOf(s);
  if (!d) return null;
  // The draft by what its rules say of it (not by every text typed), the shown sentences, and the auth type's inputs.
  return [d.kind, Object.keys(clientDraftErrors(d) ?? {}).sort(), Object.keys(s.context.errors).sort(), d.authType, d.activePackage, d.packageType];
};

runModelTest({
  name: 'clients-list',
  machine: clientsListMachine,
  testMachine: fakes.testMachine,
  onActor: (actor) => {
    fakes.reset(actor);
    prev = null;
  },
  inputs: [clientsListInput],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, draftKey(s), actOf(s)?.clientId ?? null]),
  simpleKey: (s) => JSON.stringify([s.value, draftOf(s)?.kind ?? null, draftOf(s)?.activePackage ?? null]),
  edgeKeys: true,
  // The editor's options this page does not use (record-editor-options.ts says which and why).
  notTakenByThisInput: {
    states: ['recordEditor.confirming'],
    transitions: clientsListLeavesOut.transitions,
  },
  checks: { browsing: checkStep, editing: checkStep, saving: checkStep, acting: checkStep },
});

describe('clients list (examples)', () => {
  const fill = (actor: { send: (e: Ev) => void }) => {
    actor.send(clientEvents.change({ name: '  Globex Sdn Bhd  ', email: ' admin@globex.test ', phone: ' ', origin: ' https://globex.test ' }));
    actor.send(clientEvents.change({ field: 'packageId', value: 'p-premium', packageType: 'premium' }));
  };

  it('says every broken rule of an empty Register New Client before any call, each in its sentence', () => {
    const actor = createActor(fakes.testMachine(), { input: clientsListInput }).start();
    fakes.reset(actor);
    actor.send(clientEvents.register(NOW));
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.errors).toEqual({
      name: CLIENT_NAME_REQUIRED,
      email: CLIENT_EMAIL_REQUIRED,
      origin: CLIENT_ORIGIN_REQUIRED,
      packageId: PACKAGE_REQUIRED,
    });
    expect(saves()).toEqual([]);
    actor.stop();
  });

  it('words each field rule as the server does', () => {
    const base = clientEvents.register(NOW).draft as unknown as ClientDraft;
    const ok: ClientDraft = { ...base, name: 'A', email: 'a@b.co', origin: 'https://a.test', subscription: { ...base.subscription!, packageId: 'p' } };
    expect(clientDraftErrors(ok)).toBeNull();
    expect(clientDraftErrors({ ...ok, name: 'x'.repeat(CLIENT_NAME_MAX_LENGTH + 1) })).toEqual({ name: CLIENT_NAME_TOO_LONG });
    expect(clientDraftErrors({ ...ok, name: ` ${'x'.repeat(CLIENT_NAME_MAX_LENGTH)} ` })).toBeNull();
    expect(clientDraftErrors({ ...ok, email: 'a@b' })).toEqual({ email: CLIENT_EMAIL_INVALID });
    // The server's own rule (contract clientEmail): a one-letter top-level domain is refused here too, before any call.
    expect(clientDraftErrors({ ...ok, email: 'a@b.c' })).toEqual({ email: CLIENT_EMAIL_INVALID });
    expect(clientDraftErrors({ ...ok, phone: '1'.repeat(CLIENT_PHONE_MAX_LENGTH + 1) })).toEqual({ phone: CLIENT_PHONE_INVALID });
    expect(clientDraftErrors({ ...ok, origin: 'ftp://a.test' })).toEqual({ origin: CLIENT_ORIGIN_INVALID });
    const sub = ok.subscription!;
    expect(clientDraftErrors({ ...ok, subscription: { ...sub, maxUsers: '0', fairUse: '1.5' } })).toEqual({ maxUsers: MAX_USERS_INVALID, fairUse: FAIR_USE_INVALID });
    expect(clientDraftErrors({ ...ok, subscription: { ...sub, startDate: '', expiryDate: '' } })).toEqual({ startDate: START_DATE_REQUIRED, expiryDate: EXPIRY_DATE_REQUIRED });
    expect(clientDraftErrors({ ...ok, subscription: { ...sub, expiryDate: sub.startDate } })).toEqual({ expiryDate: EXPIRY_NOT_AFTER_START });
    // Edit: origin may be empty; no subscription is checked.
    const edit = clientEvents.edit(bare).draft as unknown as ClientDraft;
    expect(clientDraftErrors({ ...edit, origin: '' })).toBeNull();
  });

  it('registers with the subscription payload: trimmed, a one-year term, ldap kept only with premium', () => {
    const actor = createActor(fakes.testMachine(), { input: clientsListInput }).start();
    fakes.reset(actor);
    actor.send(clientEvents.register(NOW));
    fill(actor);
    actor.send(clientEvents.change({ authType: 'ldap' }));
    expect(draftOf(actor.getSnapshot())!.authType).toBe('ldap');
    actor.send(clientEvents.change({ field: 'packageId', value: 'p-standard', packageType: 'standard' }));
    expect(draftOf(actor.getSnapshot())!.authType).toBe('email');
    actor.send(clientEvents.change({ field: 'packageId', value: 'p-premium', packageType: 'premium' }));
    actor.send(clientEvents.change({ authType: 'ldap' }));
    actor.send({ type: 'form.submit' });
    expect(saves()).toEqual([
      {
        kind: 'register',
        body: {
          client_data: {
            client_name: 'Globex Sdn Bhd',
            contact_info: { email: 'admin@globex.test', phone: null },
            origin: 'https://globex.test',
            status: 'active',
            auth_type: 'ldap',
            client_type: 'corporate',
          },
          subscription_data: {
            package_id: 'p-premium',
            max_users: 1,
            fair_use: 1,
            start_date: new Date(START).toISOString(),
            expire_date: new Date(ONE_YEAR_ON).toISOString(),
          },
        },
      },
    ]);
    // A refusal is said in the dialog too; it goes as the draft is sent again.
    actor.send({ type: 'xstate.error.actor.save', error: refused, actorId: 'save' } as never);
    expect(actor.getSnapshot().context.errors).toEqual({ [FORM_ERROR]: refused.serverDetail });
    actor.send({ type: 'form.submit' });
    actor.send({ type: 'xstate.done.actor.save', output: serverCopy, actorId: 'save' } as never);
    expect(rec.emitted.at(-1)).toEqual(notice('success', CLIENT_REGISTERED));
    expect(rec.toList.at(-1)).toEqual({ type: 'pager.refetch' });
    actor.stop();
  });

  it('edits with empty phone and origin as null; the auth type locked without a subscription, email only with a standard one', () => {
    const actor = createActor(fakes.testMachine(), { input: clientsListInput }).start();
    fakes.reset(actor);
    actor.send(clientEvents.edit(standard));
    actor.send(clientEvents.change({ authType: 'ldap', phone: '  ', origin: ' ', name: ' Std Co ' }));
    actor.send({ type: 'form.submit' });
    expect(saves().at(-1)).toEqual({
      kind: 'edit',
      clientId: standard.id,
      body: { client_name: 'Std Co', contact_info: { email: 'it@std.test', phone: null }, origin: null, status: 'inactive', auth_type: 'email', client_type: 'educational' },
    });
    actor.send({ type: 'xstate.done.actor.save', output: serverCopy, actorId: 'save' } as never);
    expect(rec.emitted.at(-1)).toEqual(notice('success', CLIENT_UPDATED));
    const locked = clientEvents.edit(clientOf({ auth_type: 'ldap' })).draft as unknown as ClientDraft;
    expect(authTypeLocked(locked)).toBe(true);
    expect(authTypesOffered(locked)).toEqual(['ldap']);
    expect(authTypesOffered(clientEvents.edit(premium).draft as unknown as ClientDraft)).toEqual(['email', 'ldap']);
    actor.stop();
  });

  it('switches a row to the opposite status at once; a refusal is always the spec sentence', () => {
    const actor = createActor(fakes.testMachine(), { input: clientsListInput }).start();
    fakes.reset(actor);
    actor.send(clientEvents.switchStatus(standard));
    expect(acts()).toEqual([{ kind: 'status', clientId: standard.id, status: 'active' }]);
    actor.send({ type: 'xstate.error.actor.act', error: refused, actorId: 'act' } as never);
    expect(rec.emitted.at(-1)).toEqual(notice('error', CLIENT_STATUS_UPDATE_FAILED));
    actor.send(clientEvents.switchStatus(bare));
    actor.send({ type: 'xstate.done.actor.act', output: serverCopy, actorId: 'act' } as never);
    expect(rec.emitted.at(-1)).toEqual(notice('success', CLIENT_STATUS_UPDATED));
    expect(rec.toList.at(-1)).toEqual({ type: 'item.upsert', item: serverCopy, insert: false });
    actor.stop();
  });
});
