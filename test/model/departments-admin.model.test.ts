import { describe, it, vi } from 'vitest';
import { expect } from './support/expect';
import { createActor, fromCallback, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import {
  DEPARTMENT_CREATED,
  DEPARTMENT_DELETE_FAILED,
  DEPARTMENT_DELETED,
  DEPARTMENT_NAME_REQUIRED,
  DEPARTMENT_NAME_TOO_LONG,
  DEPARTMENT_UPDATE_FAILED,
  DEPARTMENT_UPDATED,
  UNIT_CREATED,
  UNIT_DELETED,
  UNIT_NAME_REQUIRED,
} from '../../contract/departments-constants';
import { loadFailure } from '../../machines/load-failure';
import {
  departmentEvents,
  departmentListInput,
  departmentsAdminInput,
  nameError,
  REFETCH_AFTER_CREATE_MS,
  type Deletion,
  type NameDraft,
} from '../../machines/departments-admin.machine';
import { notice, type Notice } from '../../machines/notice';
import { recordEditorMachine } from '../../machines/record-editor.machine';
import { pendingActor } from './support/fakes';
import { recordEditorFakes } from './support/record-editor-fakes';
import { runModelTest } from './support/run-model';
import { departmentsAdminLeavesOut } from './support/record-editor-options';

/** The Departments page's machine: the record editor with the departments' input (its list, name rule, words). */
const departmentsAdminMachine = recordEditorMachine;
type Snap = SnapshotFrom<typeof departmentsAdminMachine>;
type Ev = EventFrom<typeof departmentsAdminMachine>;
const edit = (s: Snap) => s.context.draft as NameDraft | null;
const deletion = (s: Snap) => s.context.target as Deletion | null;
const nameErrorShown = (s: Snap) => s.context.errors.name ?? null;

const taken = loadFailure('HTTP 409', 'A department with this name already exists');
const dropped = loadFailure('Network Error', null);

const fakes = recordEditorFakes();
const { rec } = fakes;
let prev: Snap | null = null;

function eventsFor(s: Snap): Ev[] {
  const always: Ev[] = [{ type: 'list.search', text: 'fin' }, { type: 'list.goTo', page: 2 }, notice('error', 'Failed to fetch departments')];
  if (s.matches('browsing')) {
    return [
      ...always,
      departmentEvents.create(),
      departmentEvents.rename('d1', 'Finance'),
      departmentEvents.addUnit('d1', 'Finance'),
      departmentEvents.deleteDepartment('d1'),
      departmentEvents.deleteUnit('d1', 'u1'),
      { type: 'form.submit' },
    ];
  }
  if (s.matches('editing')) {
    return [
      ...always,
      departmentEvents.typeName('  Legal  '),
      departmentEvents.typeName('   '),
      departmentEvents.typeName('x'.repeat(101)),
      { type: 'form.submit' },
      { type: 'form.cancel' },
    ];
  }
  if (s.matches('saving')) {
    return [
      { type: 'xstate.done.actor.save', output: {}, actorId: 'save' },
      { type: 'xstate.error.actor.save', error: taken, actorId: 'save' },
      { type: 'xstate.error.actor.save', error: dropped, actorId: 'save' },
      { type: 'form.cancel' },
    ] as never[];
  }
  if (s.matches('confirming')) return [{ type: 'act.confirm' }, { type: 'act.cancel' }, departmentEvents.create()];
  return [
    { type: 'xstate.done.actor.act', output: {}, actorId: 'act' },
    { type: 'xstate.error.actor.act', error: dropped, actorId: 'act' },
    { type: 'act.cancel' },
  ] as never[];
}

function checkStep(s: Snap, e: { type: string } | null) {
  const p = prev;
  const event = e as ({ type: string; error?: unknown } & Record<string, unknown>) | null;

  expect(rec.listInputs).toEqual([{ ...departmentListInput, parent: expect.anything() }]);
  expect(s.hasTag('busy')).toBe(s.matches('saving') || s.matches('acting'));
  expect(edit(s) !== null).toBe(s.matches('editing') || s.matches('saving'));
  expect(deletion(s) !== null).toBe(s.matches('confirming') || s.matches('acting'));
  if (s.matches('saving') && !p?.matches('saving')) expect(rec.saves.at(-1)).toEqual({ ...edit(s), name: edit(s)!.name.trim() });
  if (s.matches('acting') && !p?.matches('acting')) expect(rec.acts.at(-1)).toEqual(deletion(s));

  const list: EventObject[] = [];
  const out: Notice[] = [];
  switch (event?.type) {
    case 'list.search':
      list.push({ type: 'pager.search', text: 'fin' } as EventObject);
      break;
    case 'list.goTo':
      list.push({ type: 'pager.goTo', page: 2 } as EventObject);
      break;
    case 'notice.show':
      out.push(notice('error', 'Failed to fetch departments'));
      break;
    case 'form.submit':
      if (p!.matches('editing') && s.matches('editing')) expect(nameErrorShown(s)).toBe(nameError(edit(p!), edit(p!)!.name));
      break;
    case 'xstate.done.actor.save': {
      const kind = edit(p!)!.kind;
      out.push(notice('success', kind === 'createDepartment' ? DEPARTMENT_CREATED : kind === 'renameDepartment' ? DEPARTMENT_UPDATED : UNIT_CREATED));
      // A new department: the list is read again after 1 s (a delayed event, not yet sent); other changes at once.
      if (kind !== 'createDepartment') list.push({ type: 'pager.refetch' });
      break;
    }
    case 'xstate.error.actor.save': {
      const kind = edit(p!)!.kind;
      const fallback = kind === 'renameDepartment' ? DEPARTMENT_UPDATE_FAILED : kind === 'createDepartment' ? 'Failed to create department' : 'Failed to create unit';
      out.push(notice('error', event.error === taken ? 'A department with this name already exists' : fallback));
      expect(edit(s)!.name).toBe(edit(p!)!.name);
      break;
    }
    case 'xstate.done.actor.act':
      out.push(notice('success', deletion(p!)!.kind === 'department' ? DEPARTMENT_DELETED : UNIT_DELETED));
      list.push({ type: 'pager.refetch' });
      break;
    case 'xstate.error.actor.act':
      out.push(notice('error', deletion(p!)!.kind === 'department' ? DEPARTMENT_DELETE_FAILED : 'Failed to delete unit'));
      break;
  }
  fakes.expectStep(list, out);
  prev = s;
}

runModelTest({
  name: 'departments-admin',
  machine: departmentsAdminMachine,
  testMachine: fakes.testMachine,
  onActor: (actor) => {
    fakes.reset(actor);
    prev = null;
  },
  inputs: [departmentsAdminInput],
  events: eventsFor,
  key: (s) =>
    JSON.stringify([s.value, edit(s)?.kind ?? null, deletion(s)?.kind ?? null, edit(s) && nameError(edit(s), edit(s)!.name), nameErrorShown(s)]),
  simpleKey: (s) => JSON.stringify([s.value, edit(s)?.kind ?? null, deletion(s)?.kind ?? null]),
  edgeKeys: true,
  // The editor's options this page does not use (record-editor-options.ts says which and why).
  notTakenByThisInput: {
    transitions: departmentsAdminLeavesOut.transitions,
  },
  checks: { browsing: checkStep, editing: checkStep, saving: checkStep, confirming: checkStep, acting: checkStep },
});

describe('departments admin (examples)', () => {
  it('reads the list again 1 s after a department is created', async () => {
    vi.useFakeTimers();
    try {
      const told: EventObject[] = [];
      const actor = createActor(
        departmentsAdminMachine.provide({
          actors: {
            list: fromCallback<EventObject, unknown>(({ receive }) => receive((e) => told.push(e))) as never,
            save: pendingActor<unknown, unknown>(),
          },
        }),
        { input: departmentsAdminInput },
      ).start();
      actor.send(departmentEvents.create());
      actor.send(departmentEvents.typeName('Legal'));
      actor.send({ type: 'form.submit' });
      actor.send({ type: 'xstate.done.actor.save', output: {}, actorId: 'save' } as never);
      expect(told).toEqual([]);
      await vi.advanceTimersByTimeAsync(REFETCH_AFTER_CREATE_MS - 1);
      expect(told).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(told).toEqual([{ type: 'pager.refetch' }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('words each name rule as the server does', () => {
    expect(nameError({ kind: 'createDepartment' }, '  ')).toBe(DEPARTMENT_NAME_REQUIRED);
    expect(nameError({ kind: 'addUnit', departmentId: 'd1', departmentName: 'Finance' }, '')).toBe(UNIT_NAME_REQUIRED);
    expect(nameError({ kind: 'renameDepartment', departmentId: 'd1' }, 'x'.repeat(101))).toBe(DEPARTMENT_NAME_TOO_LONG);
    expect(nameError({ kind: 'createDepartment' }, ` ${'x'.repeat(100)} `)).toBeNull();
  });
});
