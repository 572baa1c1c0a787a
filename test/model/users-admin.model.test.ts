import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
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
import {
  oppositeStatus,
  saveRequestOf,
  userListInput,
  userNameError,
  usersAdminMachine,
  type SaveUserRequest,
  type StatusChange,
} from '../../machines/users-admin.machine';
import { pendingActor } from './support/fakes';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof usersAdminMachine>;
type Ev = EventFrom<typeof usersAdminMachine>;

const ME = 'me';
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

let listInputs: unknown[] = [];
let toList: EventObject[] = [];
type Told = EventObject & Record<string, unknown>;
let saves: SaveUserRequest[] = [];
let switches: StatusChange[] = [];
let resends: { userId: string }[] = [];
let emitted: Notice[] = [];
let seen = { list: 0, emitted: 0, switches: 0 };
let prev: Snap | null = null;

const testMachine = () =>
  usersAdminMachine.provide({
    actors: {
      list: fromCallback<EventObject, unknown>(({ input, receive }) => {
        listInputs.push(input);
        receive((e) => toList.push(e));
      }) as never,
      save: pendingActor<User, SaveUserRequest>((i) => saves.push(i)),
      switchStatus: pendingActor<User, StatusChange>((i) => switches.push(i)),
      resend: pendingActor<unknown, { userId: string }>((i) => resends.push(i)),
    },
  });

function eventsFor(s: Snap): Ev[] {
  const always: Ev[] = [
    { type: 'users.search', text: 'nur' },
    { type: 'users.filter', status: 'active' },
    { type: 'users.filter', status: 'all' },
    { type: 'users.goTo', page: 2 },
    { type: 'users.retry' },
    notice('error', USERS_FETCH_FAILED),
  ];
  if (s.matches('browsing')) {
    return [
      ...always,
      { type: 'user.switchStatus', userId: other.id, status: 'active', name: other.name },
      { type: 'user.switchStatus', userId: other.id, status: 'inactive', name: other.name },
      { type: 'user.switchStatus', userId: ME, status: 'active', name: self.name },
      { type: 'user.resend', userId: other.id },
      { type: 'deactivation.confirm' },
      { type: 'user.edit', user: other },
      { type: 'user.edit', user: self },
      { type: 'form.submit' },
    ];
  }
  if (s.matches('editing')) {
    return [
      ...always,
      { type: 'field.name', text: '  Nur Aina Binti Ali  ' },
      { type: 'field.name', text: '   ' },
      { type: 'field.name', text: 'x'.repeat(USER_NAME_MAX_LENGTH + 1) },
      { type: 'field.role', role: 'admin' },
      { type: 'field.department', departmentId: 'd2' },
      { type: 'field.department', departmentId: 'd3', unitRequired: true },
      { type: 'field.department', departmentId: null },
      { type: 'field.unit', unitId: 'n2' },
      { type: 'form.submit' },
      { type: 'form.cancel' },
      { type: 'user.switchStatus', userId: other.id, status: 'active' },
    ];
  }
  if (s.matches('confirmingDeactivation')) {
    return [
      ...always,
      { type: 'deactivation.confirm' },
      { type: 'deactivation.cancel' },
      { type: 'user.edit', user: other },
      { type: 'user.switchStatus', userId: other.id, status: 'inactive', name: other.name },
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
  if (s.matches('switching')) {
    return [
      { type: 'xstate.done.actor.switchStatus', output: serverCopy, actorId: 'switchStatus' },
      { type: 'xstate.error.actor.switchStatus', error: refused, actorId: 'switchStatus' },
      { type: 'xstate.error.actor.switchStatus', error: dropped, actorId: 'switchStatus' },
      { type: 'user.resend', userId: other.id },
    ] as never[];
  }
  return [
    { type: 'xstate.done.actor.resend', output: null, actorId: 'resend' },
    { type: 'xstate.error.actor.resend', error: dropped, actorId: 'resend' },
    { type: 'user.edit', user: other },
  ] as never[];
}

/** Update's rule: a department, and a unit when the department has units. */
const placed = (s: Snap) => s.context.draft!.departmentId !== null && (!s.context.draft!.unitRequired || s.context.draft!.unitId !== null);

function checkStep(s: Snap, e: { type: string } | null) {
  const p = prev;
  const event = e as ({ type: string; error?: unknown } & Record<string, unknown>) | null;
  const fresh = { list: toList.slice(seen.list), emitted: emitted.slice(seen.emitted), switches: switches.slice(seen.switches) };
  seen = { list: toList.length, emitted: emitted.length, switches: switches.length };

  expect(listInputs).toEqual([{ ...userListInput, parent: expect.anything() }]);
  expect(s.hasTag('busy')).toBe(s.matches('saving') || s.matches('switching') || s.matches('resending'));
  expect(s.context.draft !== null).toBe(s.matches('editing') || s.matches('saving'));
  expect(s.context.switching !== null).toBe(s.matches('switching'));
  expect(s.context.resendingFor !== null).toBe(s.matches('resending'));
  expect(s.context.deactivating !== null).toBe(s.matches('confirmingDeactivation'));
  // Nothing is sent while the deactivation waits for its confirmation, nor when it is cancelled.
  if (s.matches('confirmingDeactivation') || event?.type === 'deactivation.cancel') expect(fresh.switches).toEqual([]);
  // The view disables one's own switch and Update without a department by asking the machine.
  if (s.matches('browsing')) {
    expect(s.can({ type: 'user.switchStatus', userId: ME, status: 'active' })).toBe(false);
    expect(s.can({ type: 'user.switchStatus', userId: other.id, status: 'active' })).toBe(true);
  }
  if (s.matches('editing')) expect(s.can({ type: 'form.submit' })).toBe(placed(s));
  if (s.matches('saving') && !p?.matches('saving')) expect(saves.at(-1)).toEqual(saveRequestOf(s.context.draft!));
  if (s.matches('switching') && !p?.matches('switching')) expect(switches.at(-1)).toEqual(s.context.switching);
  if (s.matches('resending') && !p?.matches('resending')) expect(resends.at(-1)).toEqual({ userId: other.id });

  const list: Told[] = [];
  const out: Notice[] = [];
  switch (event?.type) {
    case 'users.search':
      list.push({ type: 'pager.search', text: 'nur' });
      break;
    case 'users.filter':
      list.push({ type: 'pager.filter', filters: event.status === 'all' ? {} : { status: event.status } });
      break;
    case 'users.goTo':
      list.push({ type: 'pager.goTo', page: 2 });
      break;
    case 'users.retry':
      list.push({ type: 'pager.load' });
      break;
    case 'notice.show':
      out.push(notice('error', USERS_FETCH_FAILED));
      break;
    case 'user.switchStatus':
      if (p!.matches('browsing')) {
        // The opposite of what the row shows, and never one's own row.
        if (event.userId === ME) expect(s.matches('browsing')).toBe(true);
        // Switching an active person off asks first; switching an inactive one on does not.
        else if (event.status === 'active') {
          expect(s.matches('confirmingDeactivation')).toBe(true);
          expect(s.context.deactivating).toEqual({ userId: other.id, name: other.name });
        } else expect(s.context.switching).toEqual({ userId: other.id, status: oppositeStatus(event.status as User['status']) });
      }
      break;
    case 'deactivation.confirm':
      if (p!.matches('confirmingDeactivation')) expect(s.context.switching).toEqual({ userId: other.id, status: 'inactive' });
      else expect(s.value).toEqual(p!.value);
      break;
    case 'deactivation.cancel':
      expect(s.matches('browsing')).toBe(true);
      break;
    case 'user.edit':
      if (p!.matches('browsing')) {
        const u = event.user as User;
        expect(s.context.draft).toMatchObject({ userId: u.id, email: u.email, name: u.name, departmentId: u.department_id, own: u.id === ME });
      }
      break;
    case 'field.role':
      expect(s.context.draft!.role).toBe(p!.context.draft!.own ? p!.context.draft!.role : 'admin');
      break;
    case 'field.department':
      expect(s.context.draft!.departmentId).toBe(event.departmentId);
      expect(s.context.draft!.unitRequired).toBe(event.unitRequired === true);
      // A new department clears the unit.
      if (event.departmentId !== p!.context.draft!.departmentId) expect(s.context.draft!.unitId).toBeNull();
      break;
    case 'field.unit':
      expect(s.context.draft!.unitId).toBe(p!.context.draft!.departmentId === null ? p!.context.draft!.unitId : 'n2');
      break;
    case 'form.submit':
      if (p!.matches('editing') && s.matches('editing')) {
        expect(s.context.nameError).toBe(placed(p!) ? userNameError(p!.context.draft!.name) : p!.context.nameError);
      }
      break;
    case 'xstate.done.actor.save':
      list.push({ type: 'item.upsert', item: serverCopy, insert: false });
      out.push(notice('success', USER_UPDATED));
      break;
    case 'xstate.error.actor.save':
      out.push(notice('error', event.error === refused ? refused.serverDetail! : USER_UPDATE_FAILED));
      // The dialog keeps what was typed.
      expect(s.context.draft).toEqual(p!.context.draft);
      break;
    case 'xstate.done.actor.switchStatus':
      list.push({ type: 'item.upsert', item: serverCopy, insert: false });
      out.push(notice('success', USER_STATUS_UPDATED));
      break;
    case 'xstate.error.actor.switchStatus':
      // Nothing goes to the list: the row stays as it was.
      out.push(notice('error', event.error === refused ? refused.serverDetail! : USER_STATUS_UPDATE_FAILED));
      break;
    case 'xstate.done.actor.resend':
      out.push(notice('success', VERIFICATION_EMAIL_SENT));
      break;
    case 'xstate.error.actor.resend':
      out.push(notice('error', VERIFICATION_EMAIL_FAILED));
      break;
  }
  expect(fresh.list).toEqual(list);
  expect(fresh.emitted).toEqual(out);
  prev = s;
}

const draftKey = (s: Snap) => {
  const d = s.context.draft;
  return d ? [d.own, d.departmentId !== null, d.unitId !== null, d.unitRequired, d.role, userNameError(d.name)] : null;
};

runModelTest({
  name: 'users-admin',
  machine: usersAdminMachine,
  testMachine,
  onActor: (actor) => {
    listInputs = [];
    toList = [];
    saves = [];
    switches = [];
    resends = [];
    emitted = [];
    seen = { list: 0, emitted: 0, switches: 0 };
    prev = null;
    actor.on('*', (ev) => emitted.push(ev as Notice));
  },
  inputs: [{ meId: ME }],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, draftKey(s), s.context.nameError]),
  simpleKey: (s) => JSON.stringify([s.value, s.context.draft?.own ?? null, s.context.draft ? s.context.draft.departmentId !== null : null]),
  edgeKeys: true,
  checks: { browsing: checkStep, confirmingDeactivation: checkStep, editing: checkStep, saving: checkStep, switching: checkStep, resending: checkStep },
});

describe('users admin (examples)', () => {
  it('sends the edited fields, the name trimmed, and no role for one’s own row', () => {
    const actor = createActor(testMachine(), { input: { meId: ME } }).start();
    actor.send({ type: 'user.edit', user: other });
    actor.send({ type: 'field.name', text: '  Aina  ' });
    actor.send({ type: 'field.role', role: 'admin' });
    actor.send({ type: 'field.department', departmentId: 'd2' });
    actor.send({ type: 'field.unit', unitId: 'n2' });
    actor.send({ type: 'form.submit' });
    expect(saves.at(-1)).toEqual({ userId: 'u1', body: { name: 'Aina', role: 'admin', department_id: 'd2', unit_id: 'n2' } });
    actor.send({ type: 'xstate.done.actor.save', output: serverCopy, actorId: 'save' } as never);
    actor.send({ type: 'user.edit', user: { ...self, department_id: 'd1' } });
    actor.send({ type: 'field.role', role: 'user' });
    actor.send({ type: 'form.submit' });
    expect(saves.at(-1)).toEqual({ userId: ME, body: { name: 'Demo Admin', department_id: 'd1', unit_id: null } });
    actor.stop();
  });

  it('asks for a unit when the chosen department has units, and only then', () => {
    const actor = createActor(testMachine(), { input: { meId: ME } }).start();
    actor.send({ type: 'user.edit', user: { ...other, department_id: 'd3', unit_id: null }, unitRequired: true });
    expect(actor.getSnapshot().can({ type: 'form.submit' })).toBe(false);
    actor.send({ type: 'field.unit', unitId: 'n3' });
    expect(actor.getSnapshot().can({ type: 'form.submit' })).toBe(true);
    actor.send({ type: 'field.department', departmentId: 'd2' });
    expect(actor.getSnapshot().can({ type: 'form.submit' })).toBe(true);
    actor.stop();
  });

  it('asks before switching an active person off, and sends nothing when the admin cancels', () => {
    switches = [];
    const actor = createActor(testMachine(), { input: { meId: ME } }).start();
    actor.send({ type: 'user.switchStatus', userId: other.id, status: 'active', name: other.name });
    expect(actor.getSnapshot().value).toBe('confirmingDeactivation');
    expect(actor.getSnapshot().context.deactivating).toEqual({ userId: other.id, name: 'Nur Aina' });
    actor.send({ type: 'deactivation.cancel' });
    expect(actor.getSnapshot().value).toBe('browsing');
    expect(switches).toEqual([]);
    actor.send({ type: 'user.switchStatus', userId: other.id, status: 'active', name: other.name });
    actor.send({ type: 'deactivation.confirm' });
    expect(switches).toEqual([{ userId: other.id, status: 'inactive' }]);
    actor.send({ type: 'xstate.done.actor.switchStatus', output: serverCopy, actorId: 'switchStatus' } as never);
    // Switching an inactive person on needs no confirmation.
    actor.send({ type: 'user.switchStatus', userId: other.id, status: 'inactive', name: other.name });
    expect(actor.getSnapshot().value).toBe('switching');
    expect(switches.at(-1)).toEqual({ userId: other.id, status: 'active' });
    actor.stop();
  });

  it('words the name rule as the server does', () => {
    expect(userNameError('   ')).toBe(USER_NAME_REQUIRED);
    expect(userNameError('x'.repeat(USER_NAME_MAX_LENGTH + 1))).toBe(USER_NAME_TOO_LONG);
    expect(userNameError(` ${'x'.repeat(USER_NAME_MAX_LENGTH)} `)).toBeNull();
  });
});
