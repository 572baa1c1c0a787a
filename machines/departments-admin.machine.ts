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
import type { PagerInput } from './pager.machine';
import { deleteRecord, type ActRecordEvent, type ChangeRecordEvent, type Draft, type EditRecordEvent, type RecordEditorInput } from './record-editor.machine';

/**
 * The Departments page ('Department Management', administration spec section 2, 4 "Department creation", 5, 8):
 * the organisation's departments with their units, and the dialogs that change them. The page's machine is the
 * shared record editor (machines/record-editor.machine.ts) with this input and these events:
 *
 * The list: 10 a page with page buttons, search after 500 ms. The dialogs ('Add Department', 'Edit Department',
 * 'Add Unit to {department}'): one name field, required, at most NAME_MAX_LENGTH characters, checked before any
 * call; a failed save shows the server's sentence (a name already taken) else the spec's failure text, keeping
 * what was typed. The delete confirmation of a department or a unit; a failed delete closes it.
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

/** A dialog's draft: what it changes and the name typed. */
export type NameDraft = NameEdit & { name: string };
/** What the `save` slot is asked for: the draft with its name trimmed. */
export type SaveNameRequest = NameDraft;

const isUnit = (edit: NameEdit | null) => edit?.kind === 'addUnit';

/** The dialog's rule for its name, in the server's words. */
export function nameError(edit: NameEdit | null, name: string): string | null {
  const text = name.trim();
  if (text === '') return isUnit(edit) ? UNIT_NAME_REQUIRED : DEPARTMENT_NAME_REQUIRED;
  if (text.length > NAME_MAX_LENGTH) return isUnit(edit) ? UNIT_NAME_TOO_LONG : DEPARTMENT_NAME_TOO_LONG;
  return null;
}

const asDraft = (draft: Draft) => draft as unknown as NameDraft;

export const departmentsAdminInput: RecordEditorInput = {
  list: departmentListInput,
  rules: {
    errors: (draft) => {
      const error = nameError(asDraft(draft), asDraft(draft).name);
      return error ? { name: error } : null;
    },
    request: (draft): SaveNameRequest => ({ ...asDraft(draft), name: asDraft(draft).name.trim() }),
  },
  refetchLaterMs: REFETCH_AFTER_CREATE_MS,
};

/** The events that open the page's dialogs, with the spec's words for each change. */
export const departmentEvents = {
  /** 'Add Department': a blank name; the list is read again 1 s after it is saved. */
  create: (): EditRecordEvent => ({
    type: 'record.edit',
    draft: { kind: 'createDepartment', name: '' },
    plan: { saved: DEPARTMENT_CREATED, failed: DEPARTMENT_CREATE_FAILED, then: 'refetchLater' },
  }),
  /** 'Edit Department': its name as it is. */
  rename: (departmentId: string, name: string): EditRecordEvent => ({
    type: 'record.edit',
    draft: { kind: 'renameDepartment', departmentId, name },
    plan: { saved: DEPARTMENT_UPDATED, failed: DEPARTMENT_UPDATE_FAILED, then: 'refetch' },
  }),
  /** 'Add Unit to {department}': a blank name. */
  addUnit: (departmentId: string, departmentName: string): EditRecordEvent => ({
    type: 'record.edit',
    draft: { kind: 'addUnit', departmentId, departmentName, name: '' },
    plan: { saved: UNIT_CREATED, failed: UNIT_CREATE_FAILED, then: 'refetch' },
  }),
  deleteDepartment: (departmentId: string): ActRecordEvent =>
    deleteRecord({ kind: 'department', departmentId }, { deleted: DEPARTMENT_DELETED, failed: DEPARTMENT_DELETE_FAILED }),
  deleteUnit: (departmentId: string, unitId: string): ActRecordEvent =>
    deleteRecord({ kind: 'unit', departmentId, unitId }, { deleted: UNIT_DELETED, failed: UNIT_DELETE_FAILED }),
  /** Typing in the dialog's name field. */
  typeName: (text: string): ChangeRecordEvent => ({ type: 'record.change', patch: { name: text } }),
};
