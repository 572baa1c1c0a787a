import { assertEvent, assign, sendTo, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import {
  DEPARTMENT_CREATE_FAILED,
  DEPARTMENT_CREATED,
  DEPARTMENT_DELETE_FAILED,
  DEPARTMENT_DELETED,
  DEPARTMENT_NAME_REQUIRED,
  DEPARTMENT_NAME_TOO_LONG,
  DEPARTMENT_UPDATE_FAILED,
  DEPARTMENT_UPDATED,
  DEPARTMENTS_FETCH_FAILED,
  NAME_MAX_LENGTH,
  UNIT_CREATE_FAILED,
  UNIT_CREATED,
  UNIT_DELETE_FAILED,
  UNIT_DELETED,
  UNIT_NAME_REQUIRED,
  UNIT_NAME_TOO_LONG,
} from '../contract/departments-constants';
import { serverDetailOf } from './load-failure';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { pagerMachine, type PagerInput } from './pager.machine';
import { report } from './report';

/**
 * The Departments page ('Department Management', administration spec section 2, 4 "Department creation", 5, 8):
 * the organisation's departments with their units, and the dialogs that change them.
 *
 * The list is the shared pager (`list`, invoked): 10 a page with page buttons, search after 500 ms.
 * States: `browsing`; `editing` (the 'Add Department', 'Edit Department' or 'Add Unit to {department}' dialog:
 * one name field, required, at most NAME_MAX_LENGTH characters, checked before any call) -> `saving` (tag `busy`,
 * invokes `save`) -> `browsing` with the spec's success toast, or back to `editing` with the server's sentence (a
 * name already taken) else the spec's failure text, keeping what was typed. `confirming` (the delete confirmation
 * of a department or a unit) -> `deleting` (tag `busy`, invokes `remove`) -> `browsing`.
 * After a change the list is read again: at once, except after a department is created, when the spec waits 1 s.
 */

export const DEPARTMENT_PAGE_SIZE = 10;
export const DEPARTMENT_SEARCH_DEBOUNCE_MS = 500;
/** Spec section 4: the list refetches 1 s after a department is created. */
export const REFETCH_AFTER_CREATE_MS = 1000;

export const departmentListInput: PagerInput = {
  pageSize: DEPARTMENT_PAGE_SIZE,
  mode: 'replace',
  search: { minLength: 1, debounceMs: DEPARTMENT_SEARCH_DEBOUNCE_MS },
  messages: { load: DEPARTMENTS_FETCH_FAILED, loadMore: DEPARTMENTS_FETCH_FAILED },
};

/** What a dialog changes: a new department, a department's name, a new unit of a department. */
export type NameEdit =
  | { kind: 'createDepartment' }
  | { kind: 'renameDepartment'; departmentId: string }
  | { kind: 'addUnit'; departmentId: string; departmentName: string };

/** What a confirmation deletes. */
export type Deletion = { kind: 'department'; departmentId: string } | { kind: 'unit'; departmentId: string; unitId: string };

export type SaveNameRequest = NameEdit & { name: string };

export interface DepartmentsAdminContext {
  edit: NameEdit | null;
  name: string;
  nameError: string | null;
  deletion: Deletion | null;
}

export type DepartmentsAdminEvent =
  | { type: 'departments.search'; text: string }
  | { type: 'departments.goTo'; page: number }
  | { type: 'department.new' }
  | { type: 'department.edit'; departmentId: string; name: string }
  | { type: 'unit.add'; departmentId: string; departmentName: string }
  | { type: 'field.name'; text: string }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  | { type: 'department.delete'; departmentId: string }
  | { type: 'unit.delete'; departmentId: string; unitId: string }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  /** From the list: its failure toasts, passed on. */
  | Notice
  | DoneActorEvent<unknown, 'save'>
  | ErrorActorEvent<unknown, 'save'>
  | DoneActorEvent<unknown, 'remove'>
  | ErrorActorEvent<unknown, 'remove'>;

const isUnit = (edit: NameEdit | null) => edit?.kind === 'addUnit';

/** The dialog's rule for its name, in the server's words. */
export function nameError(edit: NameEdit | null, name: string): string | null {
  const text = name.trim();
  if (text === '') return isUnit(edit) ? UNIT_NAME_REQUIRED : DEPARTMENT_NAME_REQUIRED;
  if (text.length > NAME_MAX_LENGTH) return isUnit(edit) ? UNIT_NAME_TOO_LONG : DEPARTMENT_NAME_TOO_LONG;
  return null;
}

const SAVED: Record<NameEdit['kind'], string> = {
  createDepartment: DEPARTMENT_CREATED,
  renameDepartment: DEPARTMENT_UPDATED,
  addUnit: UNIT_CREATED,
};
const SAVE_FAILED: Record<NameEdit['kind'], string> = {
  createDepartment: DEPARTMENT_CREATE_FAILED,
  renameDepartment: DEPARTMENT_UPDATE_FAILED,
  addUnit: UNIT_CREATE_FAILED,
};
const DELETED: Record<Deletion['kind'], string> = { department: DEPARTMENT_DELETED, unit: UNIT_DELETED };
const DELETE_FAILED: Record<Deletion['kind'], string> = { department: DEPARTMENT_DELETE_FAILED, unit: UNIT_DELETE_FAILED };

const closed = { edit: null, name: '', nameError: null };

export const departmentsAdminMachine = setup({
  types: {
    context: {} as DepartmentsAdminContext,
    events: {} as DepartmentsAdminEvent,
    emitted: {} as Notice,
    tags: {} as 'busy',
    children: {} as { list: 'list'; save: 'save'; remove: 'remove' },
  },
  actors: {
    list: pagerMachine,
    save: notProvided<unknown, SaveNameRequest>('save'),
    remove: notProvided<unknown, Deletion>('remove'),
  },
  guards: {
    nameIsValid: ({ context }) => nameError(context.edit, context.name) === null,
    createdDepartment: ({ context }) => context.edit?.kind === 'createDepartment',
  },
  actions: {
    passNotice: report(({ event }: { event: Notice }) => event),
    reportSaved: report(({ context }: { context: DepartmentsAdminContext }) => notice('success', SAVED[context.edit!.kind])),
    reportSaveFailed: report(({ context, event }: { context: DepartmentsAdminContext; event: { error?: unknown } }) =>
      notice('error', serverDetailOf(event.error) ?? SAVE_FAILED[context.edit!.kind]),
    ),
    reportDeleted: report(({ context }: { context: DepartmentsAdminContext }) => notice('success', DELETED[context.deletion!.kind])),
    reportDeleteFailed: report(({ context, event }: { context: DepartmentsAdminContext; event: { error?: unknown } }) =>
      notice('error', serverDetailOf(event.error) ?? DELETE_FAILED[context.deletion!.kind]),
    ),
    refetchList: sendTo('list', { type: 'pager.refetch' }),
    refetchListLater: sendTo('list', { type: 'pager.refetch' }, { delay: REFETCH_AFTER_CREATE_MS }),
  },
}).createMachine({
  id: 'departmentsAdmin',
  context: { ...closed, deletion: null },
  invoke: { id: 'list', src: 'list', input: departmentListInput },
  initial: 'browsing',
  on: {
    'departments.search': { actions: sendTo('list', ({ event }) => ({ type: 'pager.search' as const, text: event.text })) },
    'departments.goTo': { actions: sendTo('list', ({ event }) => ({ type: 'pager.goTo' as const, page: event.page })) },
    'notice.show': { actions: 'passNotice' },
  },
  states: {
    browsing: {
      on: {
        'department.new': { target: 'editing', actions: assign({ ...closed, edit: { kind: 'createDepartment' } }) },
        'department.edit': {
          target: 'editing',
          actions: assign(({ event }) => ({ edit: { kind: 'renameDepartment' as const, departmentId: event.departmentId }, name: event.name, nameError: null })),
        },
        'unit.add': {
          target: 'editing',
          actions: assign(({ event }) => ({
            edit: { kind: 'addUnit' as const, departmentId: event.departmentId, departmentName: event.departmentName },
            name: '',
            nameError: null,
          })),
        },
        'department.delete': {
          target: 'confirming',
          actions: assign(({ event }) => ({ deletion: { kind: 'department' as const, departmentId: event.departmentId } })),
        },
        'unit.delete': {
          target: 'confirming',
          actions: assign(({ event }) => ({ deletion: { kind: 'unit' as const, departmentId: event.departmentId, unitId: event.unitId } })),
        },
      },
    },
    editing: {
      on: {
        'field.name': {
          actions: assign(({ event }) => {
            assertEvent(event, 'field.name');
            return { name: event.text, nameError: null };
          }),
        },
        'form.submit': [
          { guard: 'nameIsValid', target: 'saving' },
          { actions: assign(({ context }) => ({ nameError: nameError(context.edit, context.name) })) },
        ],
        'form.cancel': { target: 'browsing', actions: assign(closed) },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => ({ ...context.edit!, name: context.name.trim() }),
        onDone: [
          { guard: 'createdDepartment', target: 'browsing', actions: ['reportSaved', 'refetchListLater', assign(closed)] },
          { target: 'browsing', actions: ['reportSaved', 'refetchList', assign(closed)] },
        ],
        onError: { target: 'editing', actions: 'reportSaveFailed' },
      },
    },
    confirming: {
      on: {
        'delete.confirm': 'deleting',
        'delete.cancel': { target: 'browsing', actions: assign({ deletion: null }) },
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        id: 'remove',
        src: 'remove',
        input: ({ context }) => context.deletion!,
        onDone: { target: 'browsing', actions: ['reportDeleted', 'refetchList', assign({ deletion: null })] },
        onError: { target: 'browsing', actions: ['reportDeleteFailed', assign({ deletion: null })] },
      },
    },
  },
});

export type DepartmentsAdminMachine = typeof departmentsAdminMachine;
