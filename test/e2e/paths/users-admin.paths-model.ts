import type { SnapshotFrom } from 'xstate';
import { USER_NAME_MAX_LENGTH, USERS_FETCH_FAILED } from '../../../contract/users-constants';
import { loadFailure } from '../../../machines/load-failure';
import { notice } from '../../../machines/notice';
import { userNameError, usersAdminMachine } from '../../../machines/users-admin.machine';
import { isLocalServer } from '../helpers/accounts';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof usersAdminMachine>;

/** The signed-in admin's id in the model (the browser uses the real one). */
export const ME = 'me';

/**
 * What the person types in the Full Name field, by kind: a name that fits (with spaces around it), only spaces, one
 * character over the limit. The browser types its own name (with the test's word); the model's texts stand for it.
 */
export type NameKind = 'valid' | 'blank' | 'long';
const MODEL_NAMES: Record<NameKind, string> = { valid: '  Renamed  ', blank: '   ', long: 'x'.repeat(USER_NAME_MAX_LENGTH + 1) };

const person = { id: 'u1', name: 'Alpha', email: 'alpha@example.test', role: 'user' as const, department_id: null, unit_id: null };
const self = { id: ME, name: 'Admin', email: 'admin@example.test', role: 'admin' as const, department_id: 'd0', unit_id: null };

/**
 * The person, on /users: searches (the test's word), filters (Active, All), goes to page 2, switches u1's status
 * (the test's first person: off, which asks first and is confirmed or cancelled, or on) or tries their own (disabled), resends u2's verification e-mail (u2 is never switched
 * off: the server refuses to mail an inactive person), opens Edit user for u1 or for themself. In the dialog for u1:
 * types a name of each kind, picks Admin, the test's department, then a unit (the Unit select is enabled only once a
 * department is chosen), Update (only enabled with a department), Cancel. In their own dialog the Role select is
 * disabled, so Role (which changes nothing) and Cancel only: the demo admin is never changed.
 *
 * Not offered by the view: anything behind a modal dialog (search, chips, pages) while it is open, Cancel while
 * saving, 'no department' (the select has no empty choice), `form.submit` outside the dialog.
 */
function eventsFor(s: Snap): Step[] {
  const draft = s.context.draft;
  switch (valueName(s.value)) {
    case 'browsing':
      return [
        { type: 'users.search', text: 'word' },
        { type: 'users.filter', status: 'active' },
        { type: 'users.filter', status: 'all' },
        { type: 'users.goTo', page: 2 },
        { type: 'users.retry' },
        { ...notice('error', USERS_FETCH_FAILED) },
        // Switching u1 off (the row shows them active: a confirmation first) or on (inactive: at once).
        { type: 'user.switchStatus', userId: 'u1', status: 'active', name: 'Alpha' },
        { type: 'user.switchStatus', userId: 'u1', status: 'inactive', name: 'Alpha' },
        { type: 'user.switchStatus', userId: ME, status: 'active' },
        { type: 'user.resend', userId: 'u2' },
        { type: 'user.edit', user: person },
        { type: 'user.edit', user: self },
      ];
    case 'editing':
      if (draft?.own) return [{ type: 'field.role', role: 'user' }, { type: 'form.cancel' }];
      return [
        ...(Object.keys(MODEL_NAMES) as NameKind[]).map((kind) => ({ type: 'field.name', text: MODEL_NAMES[kind], kind })),
        { type: 'field.role', role: 'admin' },
        // The test's department has units, so Update waits for one of them.
        { type: 'field.department', departmentId: 'd1', unitRequired: true },
        ...(draft?.departmentId ? [{ type: 'field.unit', unitId: 'n2' }] : []),
        ...(draft?.departmentId && draft.unitId ? [{ type: 'form.submit' }] : []),
        { type: 'form.cancel' },
      ];
    case 'saving':
      return [
        { type: 'xstate.done.actor.save', output: person, actorId: 'save' },
        { type: 'xstate.error.actor.save', error: loadFailure('Network Error', null), actorId: 'save' },
      ];
    case 'confirmingDeactivation':
      return [{ type: 'deactivation.confirm' }, { type: 'deactivation.cancel' }];
    case 'switching':
      return [
        { type: 'xstate.done.actor.switchStatus', output: person, actorId: 'switchStatus' },
        { type: 'xstate.error.actor.switchStatus', error: loadFailure('Network Error', null), actorId: 'switchStatus' },
      ];
    case 'resending':
      return [
        { type: 'xstate.done.actor.resend', output: null, actorId: 'resend' },
        { type: 'xstate.error.actor.resend', error: loadFailure('Network Error', null), actorId: 'resend' },
      ];
    default:
      return [];
  }
}

/** Faults forced with stubs, so generated only locally: a failed list read (and its Try again), dropped connections. */
const FAULTS = new Set([
  'notice.show',
  'users.retry',
  'xstate.error.actor.save',
  'xstate.error.actor.switchStatus',
  'xstate.error.actor.resend',
]);

const SEARCH = { type: 'users.search', text: 'word' } as const;

const draftKey = (s: Snap) => {
  const d = s.context.draft;
  return d ? [d.own, d.departmentId !== null, d.unitId !== null, d.role, userNameError(d.name)] : null;
};

const generated = maximalPaths({
  machine: usersAdminMachine,
  inputs: [{ meId: ME }],
  events: eventsFor as never,
  // What the guards read (own row, department chosen, the name's rule) and what the person sees (the field's error).
  key: (s) => JSON.stringify([s.value, draftKey(s), s.context.nameError]),
  simpleKey: (s) => JSON.stringify([s.value, s.context.draft?.own ?? null, s.context.draft ? s.context.draft.departmentId !== null : null]),
  edgeKeys: true,
  filterEvents: (_s, e) => isLocalServer || !FAULTS.has(e.type),
});

export { usersAdminMachine };
/**
 * The organisation's people are shared: the list is only looked at through the test's own word, so each path starts
 * with that search (a self-transition, the rest goes as generated), and the fewest of the longest paths that reach
 * every state and transition the model reaches are kept.
 */
export const usersAdminPaths = asSteps<{ meId: string }>(
  coveringPaths(
    usersAdminMachine,
    generated.map((p) => {
      const events = p.events[0]?.type === SEARCH.type ? p.events : [SEARCH, ...p.events];
      return { ...p, events, description: events.map((e) => e.type).join(' → ') } as typeof p;
    }),
  ),
);
