import type { SnapshotFrom } from 'xstate';
import type { LdapSettings } from '../../../contract/ldap-settings';
import { ldapErrors, ldapSettingsMachine } from '../../../machines/ldap-settings.machine';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof ldapSettingsMachine>;

/** What a path that starts with settings stored has (put through the API before the dialog opens). */
export const STORED_URL = 'ldap://127.0.0.1:1';
export const TEMPLATE = 'uid={username},ou=people,dc=example,dc=com';
export const CHANGED_URL = 'ldaps://directory.example.com';

const stored: LdapSettings = {
  client_id: 'c1',
  url: STORED_URL,
  bind_dn_template: TEMPLATE,
  search_base: null,
  search_filter: null,
  service_bind_dn: null,
  has_service_password: false,
  tls_reject_unauthorized: true,
  updated_at: '2026-11-28T00:00:00.000Z',
};

const valid = (s: Snap) => Object.keys(ldapErrors(s.context.draft, s.context.hasServicePassword)).length === 0;

/**
 * The superuser opens a client's Directory Settings (nothing stored yet, or settings stored), fills a valid
 * directory or empties the URL, saves (refused in the form when something is missing), removes stored settings.
 * Forced in the browser with stubs, locally and against a deployment alike: the settings failing to load, to save and to be removed (the
 * network dropped). Not generated: what the view does not offer (saving or removing while a call runs; Remove
 * without stored settings is not shown).
 */
function eventsFor(s: Snap): Step[] {
  switch (valueName(s.value)) {
    case 'loading':
      return [
        { type: 'xstate.done.actor.fetchSettings', output: null, actorId: 'fetchSettings' },
        { type: 'xstate.done.actor.fetchSettings', output: stored, actorId: 'fetchSettings' },
        { type: 'xstate.error.actor.fetchSettings', error: new Error('Network Error'), actorId: 'fetchSettings' },
      ];
    case 'failed':
      return [{ type: 'ldap.retry' }];
    case 'editing':
      return [
        { type: 'ldap.change', patch: { url: CHANGED_URL, mode: 'template', bindDnTemplate: TEMPLATE } },
        { type: 'ldap.change', patch: { url: '' } },
        { type: 'ldap.save' },
        ...(s.context.stored ? [{ type: 'ldap.remove' }] : []),
      ];
    case 'saving':
      return [
        { type: 'xstate.done.actor.saveSettings', output: stored, actorId: 'saveSettings' },
        { type: 'xstate.error.actor.saveSettings', error: new Error('Network Error'), actorId: 'saveSettings' },
      ];
    case 'removing':
      return [
        { type: 'xstate.done.actor.removeSettings', output: undefined, actorId: 'removeSettings' },
        { type: 'xstate.error.actor.removeSettings', error: new Error('Network Error'), actorId: 'removeSettings' },
      ];
    default:
      return [];
  }
}


const generated = maximalPaths({
  machine: ldapSettingsMachine,
  inputs: [{ clientId: 'c1' }],
  events: eventsFor as never,
  key: (s) => JSON.stringify([s.value, s.context.stored, valid(s), s.context.error !== null, Object.keys(s.context.errors).length > 0]),
  simpleKey: (s) => JSON.stringify([s.value, s.context.stored]),
  edgeKeys: true,
  // One load a path: after a failed load, Try again finds what the path stored at its start (a retry that found
  // something else would need the server to change under the dialog).
});

/** A path reads one server state: each load in it finds the same (stored or not). */
const consistent = generated.filter((p) => new Set(p.events.filter((e) => e.type === 'xstate.done.actor.fetchSettings').map((e) => JSON.stringify((e as { output?: unknown }).output))).size <= 1);

export { ldapSettingsMachine };
export const ldapSettingsPaths = asSteps<{ clientId: string }>(coveringPaths(ldapSettingsMachine, consistent));
