import type { SnapshotFrom } from 'xstate';
import type { Client } from '../../../contract/clients';
import { CLIENTS_FETCH_FAILED } from '../../../contract/clients-constants';
import { clientDraftErrors, clientEvents, clientsListInput, type ClientAct, type ClientDraft } from '../../../machines/clients-list.machine';
import { loadFailure } from '../../../machines/load-failure';
import { notice } from '../../../machines/notice';
import { recordEditorMachine } from '../../../machines/record-editor.machine';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';
import { clientsListLeavesOut } from '../../model/support/record-editor-options';

/**
 * The Clients page's machine: the record editor with the clients' input. The paths reach every state and transition
 * that input can take (16 of the shared machine's 24): the page's switch never asks first (so never `confirming`,
 * nor asked again), its only act puts the server's copy in place, a refused one is never 'gone already', and no save
 * reads the list later. No browser can take those on this page; test/model/clients-list.model.test.ts lists them
 * (`notTakenByThisInput`) and the record editor's own model test takes them.
 */
const clientsListMachine = recordEditorMachine;
type Snap = SnapshotFrom<typeof clientsListMachine>;
const draftOf = (s: Snap) => s.context.draft as unknown as ClientDraft | null;

/** The test's own client in the model (the browser registers a real one through the API, named with its word). */
const c1: Client = {
  id: 'c1',
  client_name: 'Alpha',
  contact_info: { email: 'alpha@client.test', phone: null },
  origin: 'https://alpha.client.test',
  status: 'active',
  auth_type: 'email',
  client_type: 'corporate',
  created_at: '',
  updated_at: '',
  subscription: null,
};

/** The model's now (the browser's dialog uses the real one: only the register draft's shape matters here). */
const NOW = new Date(2026, 0, 15, 9, 30);

/** What the person does, named as the browser steps are. */
export function stepName(e: Step): string {
  switch (e.type) {
    case 'list.search':
      return 'clients.search';
    case 'list.filter':
      return 'clients.filter';
    case 'list.retry':
      return 'clients.retry';
    case 'list.goTo':
      return 'clients.goTo';
    case 'record.act':
      return 'client.switchStatus';
    case 'record.edit':
      return (e.draft as unknown as ClientDraft).kind === 'register' ? 'client.register' : 'client.edit';
    case 'record.change': {
      const patch = e.patch as Record<string, unknown>;
      if ('field' in patch) return `field.package(${String(patch.packageType)})`;
      if ('authType' in patch) return 'field.authType(ldap)';
      return 'phone' in patch ? 'field.phone' : 'field.contact';
    }
    default:
      return e.type;
  }
}

/** The status the switched row shows (the act asks for the opposite). */
export const shownStatus = (e: Step) => ((e.target as ClientAct).status === 'active' ? 'inactive' : 'active');

/**
 * The superuser, on /clients: searches the test's word, filters (Inactive, All), goes to page 2, reads the list failing (stub) and
 * Try again, switches the test's client (shown on or off), opens Register New Client or Edit Client for the test's
 * client. In Register: types the name, e-mail and origin, picks Premium then (ldap offered) LDAP, or Standard (ldap
 * reset to email), submits (the rules said before any call while something is missing), cancels. In Edit: types a
 * phone, Update, Cancel. Nothing behind the modal dialog is offered while it is open; Cancel is not while saving.
 */
function eventsFor(s: Snap): Step[] {
  const draft = draftOf(s);
  switch (valueName(s.value)) {
    case 'browsing':
      return [
        clientEvents.search('word'),
        clientEvents.filter('inactive'),
        clientEvents.filter('all'),
        clientEvents.goTo(2),
        clientEvents.retry(),
        { ...notice('error', CLIENTS_FETCH_FAILED) },
        clientEvents.switchStatus({ id: c1.id, status: 'active' }),
        clientEvents.switchStatus({ id: c1.id, status: 'inactive' }),
        clientEvents.register(NOW),
        clientEvents.edit(c1),
      ];
    case 'editing':
      if (draft?.kind === 'edit') return [clientEvents.change({ phone: '+60 3-1234 5678' }), { type: 'form.submit' }, { type: 'form.cancel' }];
      return [
        ...(draft?.name ? [] : [clientEvents.change({ name: 'New', email: 'new@client.test', origin: 'https://new.client.test' })]),
        ...(draft?.packageType === 'premium'
          ? [clientEvents.change({ authType: 'ldap' }), clientEvents.change({ field: 'packageId', value: 'standard', packageType: 'standard' })]
          : [clientEvents.change({ field: 'packageId', value: 'premium', packageType: 'premium' })]),
        { type: 'form.submit' },
        { type: 'form.cancel' },
      ];
    case 'saving':
      return [
        { type: 'xstate.done.actor.save', output: c1, actorId: 'save' },
        { type: 'xstate.error.actor.save', error: loadFailure('Network Error', null), actorId: 'save' },
      ];
    case 'acting':
      return [
        { type: 'xstate.done.actor.act', output: c1, actorId: 'act' },
        { type: 'xstate.error.actor.act', error: loadFailure('Network Error', null), actorId: 'act' },
      ];
    default:
      return [];
  }
}


const SEARCH = clientEvents.search('word');

const draftKey = (s: Snap) => {
  const d = draftOf(s);
  return d ? [d.kind, clientDraftErrors(d) === null, d.packageType, d.authType, Object.keys(s.context.errors).length > 0] : null;
};

const generated = maximalPaths({
  machine: clientsListMachine,
  inputs: [clientsListInput],
  events: eventsFor as never,
  key: (s) => JSON.stringify([s.value, draftKey(s)]),
  simpleKey: (s) => JSON.stringify([s.value, draftOf(s)?.kind ?? null]),
  edgeKeys: true,
});

export { clientsListMachine };
const LIST_ONLY = new Set(['list.search', 'list.filter', 'list.retry', 'notice.show']);

/**
 * Clients are shared (Demo Organisation among them): the list is only looked at through the test's own word, so
 * each path starts with that search, and the fewest of the longest paths that reach every state and transition the
 * model reaches are kept. A kept path that only reads the list (browsing's self-transitions) is folded into the start
 * of the next one, which then begins from browsing just the same: fewer browser tests, the same steps. Page 2 stays
 * a path of its own (it needs more than a page of the test's clients, and a later step would not find the first).
 */
const covering = coveringPaths(
  clientsListMachine,
  generated.map((p) => ({ ...p, events: p.events[0]?.type === SEARCH.type ? p.events : [SEARCH, ...p.events] }) as typeof p),
);
const folded: (typeof covering)[number][] = [];
let pending: (typeof covering)[number]['events'] = [];
for (const p of covering) {
  if (p.events.some((e) => e.type === 'list.goTo')) folded.push(p);
  else if (p.events.every((e) => LIST_ONLY.has(e.type))) pending = [...pending, ...p.events.slice(pending.length ? 1 : 0)];
  else {
    folded.push({ ...p, events: pending.length ? [...pending, ...p.events.slice(1)] : p.events });
    pending = [];
  }
}
if (pending.length) folded.push({ ...covering[0]!, events: pending });

export const clientsListPaths = asSteps<typeof clientsListInput>(
  folded.map((p) => ({ ...p, description: p.events.map((e) => stepName(e as Step)).join(' → ') })),
);

/** What no browser can cause on this page (test/e2e/paths/coverage.ts counts the rest). */
export const clientsListUnforceable = [clientsListLeavesOut];
