import { useEffect, useRef } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { Pencil, Plus, Trash2, X } from 'lucide-react';
import type { Department } from '../../../contract/departments';
import { DEPARTMENT_DELETE_CONFIRM, UNIT_DELETE_CONFIRM } from '../../../contract/departments-constants';
import { pagerView, samePagerView } from '../../../machines/pager.machine';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Modal } from '../../ui/modal';
import { PageTitle } from '../../ui/page-title';
import { Pagination } from '../../ui/pagination';
import { Cell, HeaderCell, ResponsiveTable, Row, RowHeader, TableBody, TableHead } from '../../ui/responsive-table';
import { SearchBox } from '../../ui/search-box';
import { Spinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { toast } from '../../ui/toast';
import { departmentsPageMachine } from './departments-actors';

const iconButton =
  'flex size-8 cursor-pointer items-center justify-center rounded-md text-gray-700 hover:bg-gray-200 hover:text-gray-900 dark:text-gray-200 dark:hover:bg-gray-700 dark:hover:text-white';
const chip = 'inline-flex items-center gap-1 rounded-full px-2.5 py-1 text-xs';

/** /departments ('Department Management'): a thin view of the departments-admin machine. */
export default function DepartmentsPage() {
  const admin = useActorRef(departmentsPageMachine);
  useEffect(() => {
    const sub = admin.on('notice.show', (n) => toast[n.tone](n.text));
    return () => sub.unsubscribe();
  }, [admin]);
  const listRef = useSelector(admin, (s) => s.children.list)!;
  const list = useSelector(listRef, (s) => pagerView<Department>(s), samePagerView);
  const state = useSelector(
    admin,
    (s) => ({
      editing: s.matches('editing') || s.matches('saving'),
      saving: s.matches('saving'),
      confirming: s.matches('confirming') || s.matches('deleting'),
      deleting: s.matches('deleting'),
      edit: s.context.edit,
      deletion: s.context.deletion,
      name: s.context.name,
      nameError: s.context.nameError,
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
        <Button variant="primary" onPress={() => admin.send({ type: 'department.new' })}>
          <Plus aria-hidden className="size-4" /> Add Department
        </Button>
      </div>
      <SearchBox
        label="Search departments"
        placeholder="Search departments..."
        value={list.searchText}
        onChange={(text) => admin.send({ type: 'departments.search', text })}
        className="max-w-md"
      />
      <ResponsiveTable
        aria-label="Departments"
        footer={
          <>
            {(list.loading || list.searching) && list.items.length === 0 && (
              <div className="flex justify-center p-6">
                <Spinner label="Loading departments" />
              </div>
            )}
            {!list.loading && !list.searching && list.items.length === 0 && (
              <p className="p-6 text-center text-sm text-gray-700 dark:text-gray-300">
                {list.error ?? (list.searchText.trim() ? 'No departments found' : 'No departments yet')}
              </p>
            )}
          </>
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
                        onPress={() => admin.send({ type: 'unit.delete', departmentId: d.id, unitId: u.id })}
                        className="-mr-1 rounded-full p-0.5 hover:bg-gray-300 dark:hover:bg-gray-600"
                      >
                        <X aria-hidden className="size-3" />
                      </AriaButton>
                    </li>
                  ))}
                  <li>
                    <AriaButton
                      aria-label={`Add unit to ${d.name}`}
                      onPress={() => admin.send({ type: 'unit.add', departmentId: d.id, departmentName: d.name })}
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
                    onPress={() => admin.send({ type: 'department.edit', departmentId: d.id, name: d.name })}
                  >
                    <Pencil aria-hidden className="size-4" />
                  </AriaButton>
                  <AriaButton
                    aria-label={`Delete department ${d.name}`}
                    className={iconButton}
                    onPress={() => admin.send({ type: 'department.delete', departmentId: d.id })}
                  >
                    <Trash2 aria-hidden className="size-4" />
                  </AriaButton>
                </div>
              </Cell>
            </Row>
          ))}
        </TableBody>
      </ResponsiveTable>
      {list.totalPages > 1 && (
        <Pagination page={list.page} totalPages={list.totalPages} onPageChange={(page) => admin.send({ type: 'departments.goTo', page })} />
      )}

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
            value={state.name}
            onChange={(text) => admin.send({ type: 'field.name', text })}
            errorMessage={state.nameError ?? undefined}
          />
        </form>
      </Modal>
      <ConfirmDialog
        isOpen={state.confirming}
        onOpenChange={(open) => !open && admin.send({ type: 'delete.cancel' })}
        onConfirm={() => admin.send({ type: 'delete.confirm' })}
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
