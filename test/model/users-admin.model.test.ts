import { describe, it } from 'vitest';
import { expect } from './support/expect';
import { createActor, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import type { User } from '../../contract/user';
import { VERIFICATION_EMAIL_FAILED, VERIFICATION_EMAIL_SENT } from '../../contract/registration-constants';
import {
  USER_NAME_MAX_LENGTH,
  USER_NAME_REQUIRED,
  USER_NAME_TOO_LONG,
  USER_STATUS_UPDATE_FAILED,
  USER_STATUS_UPDATED,
  USER_UPDATE_FAILED,
  USER_UPDATED,
  USERS_FETCH_FAILED,
} from '../../contract/users-constants';
import { loadFailure } from '../../machines/load-failure';
import { notice, type Notice } from '../../machines/notice';
import { recordEditorMachine } from '../../machines/record-editor.machine';
import {
  oppositeStatus,
  saveRequestOf,
  userEvents,
  userListInput,
  userNameError,
  usersAdminInput,
  type SaveUserRequest,
  type UserAct,
  type UserDraft,
} from '../../machines/users-admin.machine';
import { actOutcomes, recordEditorFakes } from './support/record-editor-fakes';
import { runModelTest } from './support/run-model';
import { usersAdminLeavesOut } from './support/record-editor-options';

/** The Users page's machine: the record editor with the users' input (its list, the dialog's rules, own row). */
const usersAdminMachine = recordEditorMachine;
type Snap = SnapshotFrom<typeof usersAdminMachine>;
type Ev = EventFrom<typeof usersAdminMachine>;
const draftOf = (s: Snap) => s.context.draft as UserDraft | null;
const actOf = (s: Snap) => s.context.target as UserAct | null;
const nameErrorShown = (s: Snap) => s.context.errors.name ?? null;

const ME = 'me';
const input = usersAdminInput(ME);
const person = (over: Partial<User> = {}): User => ({
  id: 'u1',
  name: 'Nur Aina',
  email: 'nur@demo.local',
  role: 'user',
  status: 'active',
  verified: false,
  package_name: 'free',
  image_url: null,
  department_id: 'd1',
  unit_id: 'n1',
  client_id: 'c1',
  features: [],
  ...over,
});
const other = person();
const self = person({ id: ME, name: 'Demo Admin', email: 'admin@demo.local', role: 'admin', department_id: null, unit_id: null, verified: true });
const serverCopy = person({ name: 'Nur Aina Updated', status: 'inactive' });

const refused = loadFailure('HTTP 400', 'Unit does not belong to the selected department');
const dropped = loadFailure('Network Error', null);

const fakes = recordEditorFakes();
const { rec } = fakes;
const saves = () => rec.saves as SaveUserRequest[];
const acts = () => rec.acts as unknown as UserAct[];
const switches = () => acts().filter((a) => a.kind === 'status');
let seenSwitches = 0;
let prev: Snap | null = null;

/** The switch of a row showing `status`. */
const switchOf = (user: User, status: User['status']) => userEvents.switchStatus({ ...user, status });

function eventsFor(s: Snap): Ev[] {
  const always: Ev[] = [
    userEvents.search('nur'),
    userEvents.filter('active'),
    userEvents.filter('all'),
    userEvents.goTo(2),
    userEvents.retry(),
    notice('error', USERS_FETCH_FAILED),
  ];
  if (s.matches('browsing')) {
    return [
      ...always,
      switchOf(other, 'active'),
      switchOf(other, 'inactive'),
      switchOf(self, 'active'),
      userEvents.resend(other.id),
      { type: 'act.confirm' },
      userEvents.edit(other, ME),
      userEvents.edit(self, ME),
      { type: 'form.submit' },
    ];
  }
  if (s.matches('editing')) {
    return [
      ...always,
      userEvents.typeName('  Nur Aina Binti Ali  '),
      userEvents.typeName('   '),
      userEvents.typeName('x'.repeat(USER_NAME_MAX_LENGTH + 1)),
      userEvents.pickRole('admin'),
      userEvents.pickDepartment('d2'),
      userEvents.pickDepartment('d3', true),
      userEvents.pickDepartment(null),
      userEvents.pickUnit('n2'),
      { type: 'form.submit' },
      { type: 'form.cancel' },
      switchOf(other, 'active'),
    ];
  }
  if (s.matches('confirming')) {
    return [...always, { type: 'act.confirm' }, { type: 'act.cancel' }, userEvents.edit(other, ME), switchOf(other, 'active')];
  }
  if (s.matches('saving')) {
    return [
      { type: 'xstate.done.actor.save', output: serverCopy, actorId: 'save' },
      { type: 'xstate.error.actor.save', error: refused, actorId: 'save' },
      { type: 'xstate.error.actor.save', error: dropped, actorId: 'save' },
      { type: 'form.cancel' },
    ] as never[];
  }
  // Acting: the switch answers with the server's copy, the resend with nothing.
  return [
    ...actOutcomes(actOf(s)?.kind === 'status' ? serverCopy : null, refused, dropped),
    userEvents.resend(other.id),
    userEvents.edit(other, ME),
  ];
}

/** Update's rule: a department, and a unit when the department has units. */
const placed = (s: Snap) => draftOf(s)!.departmentId !== null && (!draftOf(s)!.unitRequired || draftOf(s)!.unitId !== null);

function checkStep(s: Snap, e: { type: string } | null) {
  const p = prev;
  const event = e as ({ type: string; error?: unknown } & Record<string, unknown>) | null;
  const freshSwitches = switches().slice(seenSwitches);
  seenSwitches = switches().length;
  const act = actOf(s);

  expect(rec.listInputs).toEqual([{ ...userListInput, parent: expect.anything() }]);
  expect(s.hasTag('busy')).toBe(s.matches('saving') || s.matches('acting'));
  expect(draftOf(s) !== null).toBe(s.matches('editing') || s.matches('saving'));
  expect(act !== null).toBe(s.matches('confirming') || s.matches('acting'));
  // Only a deactivation is asked about.
  if (s.matches('confirming')) expect(act).toEqual({ kind: 'status', userId: other.id, status: 'inactive', name: other.name });
  // Nothing is sent while the deactivation waits for its confirmation, nor when it is cancelled.
  if (s.matches('confirming') || event?.type === 'act.cancel') expect(freshSwitches).toEqual([]);
  // The view disables one's own switch and Update without a department by asking the machine.
  if (s.matches('browsing')) {
    expect(s.can(switchOf(self, 'active'))).toBe(false);
    expect(s.can(switchOf(other, 'active'))).toBe(true);
    expect(s.can(userEvents.resend(other.id))).toBe(true);
  } else {
    // One change at a time.
    expect(s.can(switchOf(other, 'active'))).toBe(false);
    expect(s.can(userEvents.resend(other.id))).toBe(false);
  }
  if (s.matches('editing')) expect(s.can({ type: 'form.submit' })).toBe(placed(s));
  if (s.matches('saving') && !p?.matches('saving')) expect(saves().at(-1)).toEqual(saveRequestOf(draftOf(s)!));
  if (s.matches('acting') && !p?.matches('acting')) expect(acts().at(-1)).toEqual(act);

  const list: Told[] = [];
  const out: Notice[] = [];
  switch (event?.type) {
    case 'list.search':
      list.push({ type: 'pager.search', text: 'nur' });
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
      out.push(notice('error', USERS_FETCH_FAILED));
      break;
    case 'record.act':
      if (p!.matches('browsing')) {
        const target = event.target as UserAct;
        // Never one's own row.
        if (target.userId === ME) expect(s.matches('browsing')).toBe(true);
        else if (target.kind === 'resend') expect(act).toEqual({ kind: 'resend', userId: other.id });
        // Switching an active person off asks first; switching an inactive one on does not.
        else if (target.status === oppositeStatus('active')) expect(s.matches('confirming')).toBe(true);
        else {
          expect(s.matches('acting')).toBe(true);
          expect(act).toEqual({ kind: 'status', userId: other.id, status: 'active', name: other.name });
        }
      }
      break;
    case 'act.confirm':
      if (p!.matches('confirming')) {
        expect(s.matches('acting')).toBe(true);
        expect(freshSwitches).toEqual([{ kind: 'status', userId: other.id, status: 'inactive', name: other.name }]);
      } else expect(s.value).toEqual(p!.value);
      break;
    case 'act.cancel':
      expect(s.matches('browsing')).toBe(true);
      break;
    case 'record.edit':
      if (p!.matches('browsing')) {
        const d = draftOf(s)!;
        const u = d.userId === ME ? self : other;
        expect(d).toMatchObject({ userId: u.id, email: u.email, name: u.name, departmentId: u.department_id, own: u.id === ME });
      }
      break;
    case 'record.change': {
      const patch = event.patch as Partial<UserDraft>;
      const was = draftOf(p!)!;
      const now = draftOf(s)!;
      if ('name' in patch) {
        expect(now.name).toBe(patch.name);
        // Typing clears the name's sentence.
        expect(nameErrorShown(s)).toBeNull();
      } else expect(nameErrorShown(s)).toBe(nameErrorShown(p!));
      if ('role' in patch) expect(now.role).toBe(was.own ? was.role : 'admin');
      if ('departmentId' in patch) {
        expect(now.departmentId).toBe(patch.departmentId);
        expect(now.unitRequired).toBe(patch.departmentId !== null && patch.unitRequired === true);
        // A new department clears the unit.
        if (patch.departmentId !== was.departmentId) expect(now.unitId).toBeNull();
      }
      // No unit before a department.
      if ('unitId' in patch) expect(now.unitId).toBe(was.departmentId === null ? was.unitId : 'n2');
      break;
    }
    case 'form.submit':
      if (p!.matches('editing') && s.matches('editing')) {
        expect(nameErrorShown(s)).toBe(placed(p!) ? userNameError(draftOf(p!)!.name) : nameErrorShown(p!));
      }
      break;
    case 'xstate.done.actor.save':
      list.push({ type: 'item.upsert', item: serverCopy, insert: false });
      out.push(notice('success', USER_UPDATED));
      break;
    case 'xstate.error.actor.save':
      out.push(notice('error', event.error === refused ? refused.serverDetail! : USER_UPDATE_FAILED));
      // The dialog keeps what was typed.
      expect(draftOf(s)).toEqual(draftOf(p!));
      break;
    case 'xstate.done.actor.act':
      if (actOf(p!)!.kind === 'status') {
        list.push({ type: 'item.upsert', item: serverCopy, insert: false });
        out.push(notice('success', USER_STATUS_UPDATED));
      } else out.push(notice('success', VERIFICATION_EMAIL_SENT));
      break;
    case 'xstate.error.actor.act': {
      // Nothing goes to the list: the row stays as it was.
      const failed = actOf(p!)!.kind === 'status' ? USER_STATUS_UPDATE_FAILED : VERIFICATION_EMAIL_FAILED;
      out.push(notice('error', event.error === refused ? refused.serverDetail! : failed));
      expect(s.matches('browsing')).toBe(true);
      break;
    }
  }
  fakes.expectStep(list, out);
  prev = s;
}

type Told = EventObject & Record<string, unknown>;

const draftKey = (s: Snap) => {
  const d = draftOf(s);
  return d ? [d.own, d.departmentId !== null, d.unitId !== null, d.unitRequired, d.role, userNameError(d.name)] : null;
};

runModelTest({
  name: 'users-admin',
  machine: usersAdminMachine,
  testMachine: fakes.testMachine,
  onActor: (actor) => {
    fakes.reset(actor);
    seenSwitches = 0;
    prev = null;
  },
  inputs: [input],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, draftKey(s), nameErrorShown(s), actOf(s)?.kind ?? null]),
  simpleKey: (s) => JSON.stringify([s.value, draftOf(s)?.own ?? null, draftOf(s) ? draftOf(s)!.departmentId !== null : null, actOf(s)?.kind ?? null]),
  edgeKeys: true,
  // The editor's options this page does not use (record-editor-options.ts says which and why).
  notTakenByThisInput: {
    transitions: usersAdminLeavesOut.transitions,
  },
  checks: { browsing: checkStep, confirming: checkStep, editing: checkStep, saving: checkStep, acting: checkStep },
});

describe('users admin (examples)', () => {
  it('sends the edited fields, the name trimmed, and no role for one’s own row', () => {
    const actor = createActor(fakes.testMachine(), { input }).start();
    fakes.reset(actor);
    actor.send(userEvents.edit(other, ME));
    actor.send(userEvents.typeName('  Aina  '));
    actor.send(userEvents.pickRole('admin'));
    actor.send(userEvents.pickDepartment('d2'));
    actor.send(userEvents.pickUnit('n2'));
    actor.send({ type: 'form.submit' });
    expect(saves().at(-1)).toEqual({ userId: 'u1', body: { name: 'Aina', role: 'admin', department_id: 'd2', unit_id: 'n2' } });
    actor.send({ type: 'xstate.done.actor.save', output: serverCopy, actorId: 'save' } as never);
    actor.send(userEvents.edit({ ...self, department_id: 'd1' }, ME));
    actor.send(userEvents.pickRole('user'));
    actor.send({ type: 'form.submit' });
    expect(saves().at(-1)).toEqual({ userId: ME, body: { name: 'Demo Admin', department_id: 'd1', unit_id: null } });
    actor.stop();
  });

  it('asks for a unit when the chosen department has units, and only then', () => {
    const actor = createActor(fakes.testMachine(), { input }).start();
    actor.send(userEvents.edit({ ...other, department_id: 'd3', unit_id: null }, ME, true));
    expect(actor.getSnapshot().can({ type: 'form.submit' })).toBe(false);
    actor.send(userEvents.pickUnit('n3'));
    expect(actor.getSnapshot().can({ type: 'form.submit' })).toBe(true);
    actor.send(userEvents.pickDepartment('d2'));
    expect(actor.getSnapshot().can({ type: 'form.submit' })).toBe(true);
    actor.stop();
  });

  it('asks before switching an active person off, and sends nothing when the admin cancels', () => {
    const actor = createActor(fakes.testMachine(), { input }).start();
    fakes.reset(actor);
    actor.send(switchOf(other, 'active'));
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(actor.getSnapshot().context.target).toEqual({ kind: 'status', userId: other.id, status: 'inactive', name: 'Nur Aina' });
    actor.send({ type: 'act.cancel' });
    expect(actor.getSnapshot().value).toBe('browsing');
    expect(switches()).toEqual([]);
    actor.send(switchOf(other, 'active'));
    actor.send({ type: 'act.confirm' });
    expect(switches()).toEqual([{ kind: 'status', userId: other.id, status: 'inactive', name: other.name }]);
    actor.send({ type: 'xstate.done.actor.act', output: serverCopy, actorId: 'act' } as never);
    // Switching an inactive person on needs no confirmation.
    actor.send(switchOf(other, 'inactive'));
    expect(actor.getSnapshot().value).toBe('acting');
    expect(switches().at(-1)).toEqual({ kind: 'status', userId: other.id, status: 'active', name: other.name });
    actor.stop();
  });

  it('words the name rule as the server does', () => {
    expect(userNameError('   ')).toBe(USER_NAME_REQUIRED);
    expect(userNameError('x'.repeat(USER_NAME_MAX_LENGTH + 1))).toBe(USER_NAME_TOO_LONG);
    expect(userNameError(` ${'x'.repeat(USER_NAME_MAX_LENGTH)} `)).toBeNull();
  });
});
