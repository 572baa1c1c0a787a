import type { SnapshotFrom } from 'xstate';
import { DEPARTMENT_NAME_TAKEN, DEPARTMENTS_FETCH_FAILED, NAME_MAX_LENGTH } from '../../../contract/departments-constants';
import { loadFailure } from '../../../machines/load-failure';
import { departmentsAdminMachine, nameError } from '../../../machines/departments-admin.machine';
import { notice } from '../../../machines/notice';
import { isLocalServer } from '../helpers/accounts';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';

type Snap = SnapshotFrom<typeof departmentsAdminMachine>;

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
        { type: 'departments.search', text: 'word' },
        { type: 'departments.goTo', page: 2 },
        { ...notice('error', DEPARTMENTS_FETCH_FAILED) },
        { type: 'department.new' },
        { type: 'department.edit', departmentId: 'd1', name: 'Legal' },
        { type: 'unit.add', departmentId: 'd1', departmentName: 'Legal' },
        { type: 'department.delete', departmentId: 'd1' },
        { type: 'unit.delete', departmentId: 'd1', unitId: 'u1' },
      ];
    case 'editing':
      return [
        ...(Object.keys(MODEL_NAMES) as NameKind[]).map((kind) => ({ type: 'field.name', text: MODEL_NAMES[kind], kind })),
        { type: 'form.submit' },
        { type: 'form.cancel' },
      ];
    case 'saving':
      return [
        { type: 'xstate.done.actor.save', output: {}, actorId: 'save' },
        { type: 'xstate.error.actor.save', error: loadFailure('HTTP 409', DEPARTMENT_NAME_TAKEN), actorId: 'save' },
      ];
    case 'confirming':
      return [{ type: 'delete.confirm' }, { type: 'delete.cancel' }];
    case 'deleting':
      return [
        { type: 'xstate.done.actor.remove', output: {}, actorId: 'remove' },
        { type: 'xstate.error.actor.remove', error: loadFailure('Network Error', null), actorId: 'remove' },
      ];
    default:
      return [];
  }
}

/** Faults forced with stubs, so generated only locally: the list's read failing, a delete's connection dropped. */
const FAULTS = new Set(['notice.show', 'xstate.error.actor.remove']);

const SEARCH = { type: 'departments.search', text: 'word' } as const;

const generated = maximalPaths({
  machine: departmentsAdminMachine,
  inputs: [undefined as never],
  events: eventsFor as never,
  // What the guards read (the dialog's kind and whether its name passes) and what the person sees (the field's error).
  key: (s) =>
    JSON.stringify([s.value, s.context.edit?.kind ?? null, s.context.deletion?.kind ?? null, nameError(s.context.edit, s.context.name), s.context.nameError]),
  simpleKey: (s) => JSON.stringify([s.value, s.context.edit?.kind ?? null, s.context.deletion?.kind ?? null]),
  edgeKeys: true,
  filterEvents: (_s, e) => isLocalServer || !FAULTS.has(e.type),
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
      return { ...p, events, description: events.map((e) => e.type).join(' → ') } as typeof p;
    }),
  ),
);
