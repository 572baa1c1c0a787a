import type { SnapshotFrom } from 'xstate';
import { DEPARTMENT_NAME_TAKEN, DEPARTMENTS_FETCH_FAILED, NAME_MAX_LENGTH } from '../../../contract/departments-constants';
import { loadFailure } from '../../../machines/load-failure';
import { departmentEvents, departmentsAdminInput, nameError, type Deletion, type NameDraft } from '../../../machines/departments-admin.machine';
import { notice } from '../../../machines/notice';
import { recordEditorMachine } from '../../../machines/record-editor.machine';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';
import { departmentsAdminLeavesOut } from '../../model/support/record-editor-options';

/**
 * The Departments page's machine: the record editor with the departments' input. The paths reach every transition
 * that input can take (16 of the shared machine's 24): the page filters nothing and has no Try again, reads the list
 * again after every save, and its only act is a delete, asked first, that reads the list again and closes the
 * question when it fails. No browser can take the rest on this page; test/model/departments-admin.model.test.ts lists
 * them (`notTakenByThisInput`) and the record editor's own model test takes them.
 */
const departmentsAdminMachine = recordEditorMachine;
type Snap = SnapshotFrom<typeof departmentsAdminMachine>;
const edit = (s: Snap) => s.context.draft as NameDraft | null;
const deletion = (s: Snap) => s.context.target as Deletion | null;

/**
 * What the person does, named as the browser steps are: the record editor's generic events (`record.edit`,
 * `record.act` (a delete), `record.change`, `list.*`) told apart by what they carry.
 */
export function stepName(e: Step): string {
  if (e.type === 'record.edit') {
    const kind = (e.draft as NameDraft).kind;
    return kind === 'createDepartment' ? 'department.new' : kind === 'renameDepartment' ? 'department.edit' : 'unit.add';
  }
  if (e.type === 'record.act') return (e.target as Deletion).kind === 'unit' ? 'unit.delete' : 'department.delete';
  if (e.type === 'record.change') return 'field.name';
  if (e.type === 'list.search') return 'departments.search';
  if (e.type === 'list.goTo') return 'departments.goTo';
  return e.type;
}

/**
 * What the person types in a dialog's name field, by kind: a name that fits (with spaces around it), only spaces,
 * one character over the limit. The browser types its own name for each kind (the test's unique word), so the
 * model's texts only stand for them.
 */
export type NameKind = 'valid' | 'blank' | 'long';
const MODEL_NAMES: Record<NameKind, string> = { valid: '  Legal  ', blank: '   ', long: 'x'.repeat(NAME_MAX_LENGTH + 1) };

/**
 * The person, on /departments: searches (the test's word), goes to page 2, Add Department, Edit department {d1},
 * Add unit to {d1}, Delete department {d1}, Delete unit {u1 of d1}; in a dialog types a name of each kind, Save,
 * Cancel; in a confirmation Delete or Cancel; the server answers (a name already taken for real; a failed list
 * read or delete with a stub). `d1` is the test's department listed first when first named, `u1` its first unit.
 *
 * What the root handles (search, page, the list's failure toast) is offered from `browsing` only: in the other
 * states a modal dialog covers the page. Not offered by the view: Save, Cancel or a dismissal while saving (Cancel
 * disabled, the dialog not dismissable), Cancel while deleting (likewise), `form.submit` outside a dialog.
 * The save's dropped connection is the same transition as the taken name (`saving` -> `editing`), so only the taken
 * name, which staging can answer too, is generated; the model test covers both.
 */
function eventsFor(s: Snap): Step[] {
  switch (valueName(s.value)) {
    case 'browsing':
      return [
        { type: 'list.search', text: 'word' },
        { type: 'list.goTo', page: 2 },
        { ...notice('error', DEPARTMENTS_FETCH_FAILED) },
        departmentEvents.create(),
        departmentEvents.rename('d1', 'Legal'),
        departmentEvents.addUnit('d1', 'Legal'),
        departmentEvents.deleteDepartment('d1'),
        departmentEvents.deleteUnit('d1', 'u1'),
      ];
    case 'editing':
      return [
        ...(Object.keys(MODEL_NAMES) as NameKind[]).map((kind) => ({ ...departmentEvents.typeName(MODEL_NAMES[kind]), kind })),
        { type: 'form.submit' },
        { type: 'form.cancel' },
      ];
    case 'saving':
      return [
        { type: 'xstate.done.actor.save', output: {}, actorId: 'save' },
        { type: 'xstate.error.actor.save', error: loadFailure('HTTP 409', DEPARTMENT_NAME_TAKEN), actorId: 'save' },
      ];
    case 'confirming':
      return [{ type: 'act.confirm' }, { type: 'act.cancel' }];
    case 'acting':
      return [
        { type: 'xstate.done.actor.act', output: {}, actorId: 'act' },
        { type: 'xstate.error.actor.act', error: loadFailure('Network Error', null), actorId: 'act' },
      ];
    default:
      return [];
  }
}


const SEARCH = { type: 'list.search', text: 'word' } as const;

const generated = maximalPaths({
  machine: departmentsAdminMachine,
  inputs: [departmentsAdminInput],
  events: eventsFor as never,
  // What the guards read (the dialog's kind and whether its name passes) and what the person sees (the field's error).
  key: (s) =>
    JSON.stringify([s.value, edit(s)?.kind ?? null, deletion(s)?.kind ?? null, edit(s) && nameError(edit(s), edit(s)!.name), s.context.errors.name ?? null]),
  simpleKey: (s) => JSON.stringify([s.value, edit(s)?.kind ?? null, deletion(s)?.kind ?? null]),
  edgeKeys: true,
});

export { departmentsAdminMachine };
/**
 * The organisation's departments are shared: the list is only looked at through the test's own word, so each path
 * starts with that search (a self-transition, the rest goes as generated), and the fewest of the longest paths that
 * reach every state and transition the model reaches are kept.
 */
export const departmentsAdminPaths = asSteps<undefined>(
  coveringPaths(
    departmentsAdminMachine,
    generated.map((p) => {
      const events = p.events[0]?.type === SEARCH.type ? p.events : [SEARCH, ...p.events];
      return { ...p, events, description: events.map((e) => stepName(e as Step)).join(' → ') } as typeof p;
    }),
  ),
);

/** What no browser can cause on this page (test/e2e/paths/coverage.ts counts the rest). */
export const departmentsAdminUnforceable = [departmentsAdminLeavesOut];
