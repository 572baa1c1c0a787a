import { useRef } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { Pencil, Plus, Trash2, X } from 'lucide-react';
import type { Department } from '../../../contract/departments';
import { DEPARTMENT_DELETE_CONFIRM, UNIT_DELETE_CONFIRM } from '../../../contract/departments-constants';
import { departmentEvents, departmentsAdminInput, type Deletion, type NameDraft } from '../../../machines/departments-admin.machine';
import { pagerView, samePagerView } from '../../../machines/pager.machine';
import { recordEditorMachine } from '../../../machines/record-editor.machine';
import { addUnit, createDepartment, deleteDepartment, deleteUnit, fetchDepartmentPage, renameDepartment } from '../../api/departments';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Modal } from '../../ui/modal';
import { PageTitle } from '../../ui/page-title';
import { Pagination } from '../../ui/pagination';
import { Cell, HeaderCell, ResponsiveTable, Row, RowHeader, TableBody, TableHead } from '../../ui/responsive-table';
import { SearchBox } from '../../ui/search-box';
import { ListStatus } from '../../ui/list-status';
import { TextField } from '../../ui/text-field';
import { useNoticeToasts } from '../../ui/use-notice-toasts';
import { defineDepartmentsActors } from './departments-actors';

const machine = recordEditorMachine.provide({
  actors: defineDepartmentsActors({ api: { fetchDepartmentPage, createDepartment, renameDepartment, addUnit, deleteDepartment, deleteUnit } }),
});

const iconButton =
  'flex size-8 cursor-pointer items-center justify-center rounded-md text-gray-700 hover:bg-gray-200 hover:text-gray-900 dark:text-gray-200 dark:hover:bg-gray-700 dark:hover:text-white';
const chip = 'inline-flex items-center gap-1 rounded-full px-2.5 py-1 text-xs';

/** /departments ('Department Management'): a thin view of the record editor with the departments' input. */
export default function DepartmentsPage() {
  const admin = useActorRef(machine, { input: departmentsAdminInput });
  useNoticeToasts(admin);
  const listRef = useSelector(admin, (s) => s.children.list)!;
  const list = useSelector(listRef, (s) => pagerView<Department>(s), samePagerView);
  const state = useSelector(
    admin,
    (s) => ({
      editing: s.matches('editing') || s.matches('saving'),
      saving: s.matches('saving'),
      confirming: s.matches('confirming') || s.matches('acting'),
      deleting: s.matches('acting'),
      edit: s.context.draft as NameDraft | null,
      deletion: s.context.target as Deletion | null,
      nameError: s.context.errors.name ?? null,
    }),
    shallowEqual,
  );
  // A dialog keeps its title while it closes (the machine has already let go of what it was about).
  const lastEdit = useRef(state.edit);
  const lastDeletion = useRef(state.deletion);
  if (state.edit) lastEdit.current = state.edit;
  if (state.deletion) lastDeletion.current = state.deletion;
  const edit = lastEdit.current;
  const dialogTitle =
    edit?.kind === 'addUnit' ? `Add Unit to ${edit.departmentName}` : edit?.kind === 'renameDepartment' ? 'Edit Department' : 'Add Department';
  const isUnit = lastDeletion.current?.kind === 'unit';

  return (
    <div className="mx-auto max-w-5xl space-y-6 p-6 md:p-10">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <PageTitle>Department Management</PageTitle>
        <Button variant="primary" onPress={() => admin.send(departmentEvents.create())}>
          <Plus aria-hidden className="size-4" /> Add Department
        </Button>
      </div>
      <SearchBox
        label="Search departments"
        placeholder="Search departments..."
        value={list.searchText}
        onChange={(text) => admin.send({ type: 'list.search', text })}
        className="max-w-md"
      />
      <ResponsiveTable
        aria-label="Departments"
        footer={
          <ListStatus
            hasItems={list.items.length > 0}
            busy={list.loading || list.searching}
            loadingLabel="Loading departments"
            empty={list.error ?? (list.searchText.trim() ? 'No departments found' : 'No departments yet')}
          />
        }
      >
        <TableHead>
          <HeaderCell>Department</HeaderCell>
          <HeaderCell>Units</HeaderCell>
          <HeaderCell className="text-right">Actions</HeaderCell>
        </TableHead>
        <TableBody>
          {list.items.map((d) => (
            <Row key={d.id} className="align-top">
              <RowHeader className="font-medium">{d.name}</RowHeader>
              {/* On a phone the chips wrap under their label rather than beside it. */}
              <Cell label="Units" className="max-sm:flex-col max-sm:items-start max-sm:text-left">
                <ul aria-label={`Units of ${d.name}`} className="flex flex-wrap gap-1.5">
                  {d.units.map((u) => (
                    <li key={u.id} className={`${chip} bg-gray-100 text-gray-800 dark:bg-gray-700 dark:text-gray-100`}>
                      {u.name}
                      <AriaButton
                        aria-label={`Delete unit ${u.name}`}
                        onPress={() => admin.send(departmentEvents.deleteUnit(d.id, u.id))}
                        className="-mr-1 rounded-full p-0.5 hover:bg-gray-300 dark:hover:bg-gray-600"
                      >
                        <X aria-hidden className="size-3" />
                      </AriaButton>
                    </li>
                  ))}
                  <li>
                    <AriaButton
                      aria-label={`Add unit to ${d.name}`}
                      onPress={() => admin.send(departmentEvents.addUnit(d.id, d.name))}
                      className={`${chip} border border-dashed border-gray-400 text-gray-700 hover:bg-gray-100 dark:border-gray-500 dark:text-gray-200 dark:hover:bg-gray-700`}
                    >
                      <Plus aria-hidden className="size-3" /> Add Unit
                    </AriaButton>
                  </li>
                </ul>
              </Cell>
              <Cell label="Actions">
                <div className="flex justify-end gap-1">
                  <AriaButton
                    aria-label={`Edit department ${d.name}`}
                    className={iconButton}
                    onPress={() => admin.send(departmentEvents.rename(d.id, d.name))}
                  >
                    <Pencil aria-hidden className="size-4" />
                  </AriaButton>
                  <AriaButton
                    aria-label={`Delete department ${d.name}`}
                    className={iconButton}
                    onPress={() => admin.send(departmentEvents.deleteDepartment(d.id))}
                  >
                    <Trash2 aria-hidden className="size-4" />
                  </AriaButton>
                </div>
              </Cell>
            </Row>
          ))}
        </TableBody>
      </ResponsiveTable>
      <Pagination page={list.page} totalPages={list.totalPages} onPageChange={(page) => admin.send({ type: 'list.goTo', page })} />

      <Modal
        isOpen={state.editing}
        onOpenChange={(open) => !open && !state.saving && admin.send({ type: 'form.cancel' })}
        isDismissable={!state.saving}
        title={dialogTitle}
        footer={
          <>
            <Button isDisabled={state.saving} onPress={() => admin.send({ type: 'form.cancel' })}>
              Cancel
            </Button>
            <Button variant="primary" isPending={state.saving} onPress={() => admin.send({ type: 'form.submit' })}>
              Save
            </Button>
          </>
        }
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            admin.send({ type: 'form.submit' });
          }}
        >
          <TextField
            label={edit?.kind === 'addUnit' ? 'Unit Name' : 'Department Name'}
            isRequired
            autoFocus
            value={edit?.name ?? ''}
            onChange={(text) => admin.send(departmentEvents.typeName(text))}
            errorMessage={state.nameError ?? undefined}
          />
        </form>
      </Modal>
      <ConfirmDialog
        isOpen={state.confirming}
        onOpenChange={(open) => !open && admin.send({ type: 'act.cancel' })}
        onConfirm={() => admin.send({ type: 'act.confirm' })}
        isPending={state.deleting}
        title={isUnit ? 'Delete Unit' : 'Delete Department'}
        message={
          <>
            <p>{isUnit ? UNIT_DELETE_CONFIRM : DEPARTMENT_DELETE_CONFIRM}</p>
            <p className="mt-2">
              {isUnit
                ? 'People in this unit will have no department or unit, and must choose them again on their Profile.'
                : 'Its units are deleted too. People in it will have no department or unit, and must choose them again on their Profile.'}
            </p>
          </>
        }
        confirmLabel="Delete"
      />
    </div>
  );
}
