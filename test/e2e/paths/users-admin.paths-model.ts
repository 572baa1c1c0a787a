import type { SnapshotFrom } from 'xstate';
import { USER_NAME_MAX_LENGTH, USERS_FETCH_FAILED } from '../../../contract/users-constants';
import { loadFailure } from '../../../machines/load-failure';
import { notice } from '../../../machines/notice';
import { recordEditorMachine } from '../../../machines/record-editor.machine';
import { oppositeStatus, userEvents, userNameError, usersAdminInput, type UserAct, type UserDraft } from '../../../machines/users-admin.machine';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';
import { usersAdminLeavesOut } from '../../model/support/record-editor-options';

/**
 * The Users page's machine: the record editor with the users' input. The paths reach every transition that input can
 * take (19 of the shared machine's 24): every save and status switch puts the server's copy in place, a resend keeps
 * the list (nothing reads it again), and a failed act is never 'gone already' nor asked again. No browser can take
 * the rest on this page; test/model/users-admin.model.test.ts lists them (`notTakenByThisInput`) and the record
 * editor's own model test takes them.
 */
const usersAdminMachine = recordEditorMachine;
type Snap = SnapshotFrom<typeof usersAdminMachine>;
const draftOf = (s: Snap) => s.context.draft as UserDraft | null;
const actOf = (s: Snap) => s.context.target as UserAct | null;

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
 * What the person does, named as the browser steps are: the record editor's generic events (`record.act`,
 * `record.change`, `list.*`, the act's outcome) told apart by what they carry; an act's outcome by the act it
 * answers (`act`, put on the event by the model).
 */
export function stepName(e: Step): string {
  switch (e.type) {
    case 'list.search':
      return 'users.search';
    case 'list.filter':
      return 'users.filter';
    case 'list.goTo':
      return 'users.goTo';
    case 'list.retry':
      return 'users.retry';
    case 'record.act':
      return (e.target as UserAct).kind === 'status' ? 'user.switchStatus' : 'user.resend';
    case 'act.confirm':
      return 'deactivation.confirm';
    case 'act.cancel':
      return 'deactivation.cancel';
    case 'record.edit':
      return 'user.edit';
    case 'record.change': {
      const field = Object.keys(e.patch as object)[0];
      return field === 'name' ? 'field.name' : field === 'role' ? 'field.role' : field === 'departmentId' ? 'field.department' : 'field.unit';
    }
    case 'xstate.done.actor.act':
    case 'xstate.error.actor.act':
      return e.type.replace(/act$/, e.act === 'status' ? 'switchStatus' : 'resend');
    default:
      return e.type;
  }
}

/** The status a switch's row shows (the act asks for the opposite). */
export const shownStatus = (e: Step) => oppositeStatus((e.target as Extract<UserAct, { kind: 'status' }>).status);

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
  const draft = draftOf(s);
  switch (valueName(s.value)) {
    case 'browsing':
      return [
        userEvents.search('word'),
        userEvents.filter('active'),
        userEvents.filter('all'),
        userEvents.goTo(2),
        userEvents.retry(),
        { ...notice('error', USERS_FETCH_FAILED) },
        // Switching u1 off (the row shows them active: a confirmation first) or on (inactive: at once).
        userEvents.switchStatus({ id: 'u1', status: 'active', name: 'Alpha' }),
        userEvents.switchStatus({ id: 'u1', status: 'inactive', name: 'Alpha' }),
        userEvents.switchStatus({ id: ME, status: 'active', name: 'Admin' }),
        userEvents.resend('u2'),
        userEvents.edit(person, ME),
        userEvents.edit(self, ME),
      ];
    case 'editing':
      if (draft?.own) return [userEvents.pickRole('user'), { type: 'form.cancel' }];
      return [
        ...(Object.keys(MODEL_NAMES) as NameKind[]).map((kind) => ({ ...userEvents.typeName(MODEL_NAMES[kind]), kind })),
        userEvents.pickRole('admin'),
        // The test's department has units, so Update waits for one of them.
        userEvents.pickDepartment('d1', true),
        ...(draft?.departmentId ? [userEvents.pickUnit('n2')] : []),
        ...(draft?.departmentId && draft.unitId ? [{ type: 'form.submit' }] : []),
        { type: 'form.cancel' },
      ];
    case 'saving':
      return [
        { type: 'xstate.done.actor.save', output: person, actorId: 'save' },
        { type: 'xstate.error.actor.save', error: loadFailure('Network Error', null), actorId: 'save' },
      ];
    case 'confirming':
      return [{ type: 'act.confirm' }, { type: 'act.cancel' }];
    case 'acting': {
      // The switch answers with the server's copy, the resend with nothing; `act` names which for the browser.
      const act = actOf(s)!.kind;
      return [
        { type: 'xstate.done.actor.act', output: act === 'status' ? person : null, actorId: 'act', act },
        { type: 'xstate.error.actor.act', error: loadFailure('Network Error', null), actorId: 'act', act },
      ];
    }
    default:
      return [];
  }
}


const SEARCH = userEvents.search('word');

const draftKey = (s: Snap) => {
  const d = draftOf(s);
  return d ? [d.own, d.departmentId !== null, d.unitId !== null, d.role, userNameError(d.name)] : null;
};

const generated = maximalPaths({
  machine: usersAdminMachine,
  inputs: [usersAdminInput(ME)],
  events: eventsFor as never,
  // What the guards read (own row, department chosen, the name's rule, the act running) and what the person sees
  // (the field's error).
  key: (s) => JSON.stringify([s.value, draftKey(s), s.context.errors.name ?? null, actOf(s)?.kind ?? null]),
  simpleKey: (s) =>
    JSON.stringify([s.value, draftOf(s)?.own ?? null, draftOf(s) ? draftOf(s)!.departmentId !== null : null, actOf(s)?.kind ?? null]),
  edgeKeys: true,
});

export { usersAdminMachine };
/**
 * The organisation's people are shared: the list is only looked at through the test's own word, so each path starts
 * with that search (a self-transition, the rest goes as generated), and the fewest of the longest paths that reach
 * every state and transition the model reaches are kept.
 */
export const usersAdminPaths = asSteps<ReturnType<typeof usersAdminInput>>(
  coveringPaths(
    usersAdminMachine,
    generated.map((p) => {
      const events = p.events[0]?.type === SEARCH.type ? p.events : [SEARCH, ...p.events];
      return { ...p, events, description: events.map((e) => stepName(e as Step)).join(' → ') } as typeof p;
    }),
  ),
);

/** What no browser can cause on this page (test/e2e/paths/coverage.ts counts the rest). */
export const usersAdminUnforceable = [usersAdminLeavesOut];
