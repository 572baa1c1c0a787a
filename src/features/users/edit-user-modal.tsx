import { useRef } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { Department } from '../../../contract/departments';
import { OWN_ROLE_UNCHANGEABLE } from '../../../contract/users-constants';
import type { RecordEditorMachine } from '../../../machines/record-editor.machine';
import { userEvents, type EditableRole, type UserDraft } from '../../../machines/users-admin.machine';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { Modal } from '../../ui/modal';
import { Select } from '../../ui/select';
import { TextField } from '../../ui/text-field';

const ROLES = [
  { id: 'user', label: 'User' },
  { id: 'admin', label: 'Admin' },
];

/** Whether the department has units, so that one must be chosen too (what the machine's draft needs to know). */
export function hasUnits(departments: Department[] | null, departmentId: string | null): boolean {
  return !!departmentId && !!departments?.find((d) => d.id === departmentId)?.units.length;
}

/** The Edit User dialog: a thin view of the record editor's `editing` and `saving` states on the Users page. */
export function EditUserModal({ admin, departments }: { admin: ActorRefFrom<RecordEditorMachine>; departments: Department[] | null }) {
  const state = useSelector(
    admin,
    (s) => ({
      open: s.matches('editing') || s.matches('saving'),
      saving: s.matches('saving'),
      draft: s.context.draft as UserDraft | null,
      nameError: s.context.errors.name ?? null,
      canSubmit: s.can({ type: 'form.submit' }),
    }),
    shallowEqual,
  );
  // The dialog keeps its fields while it closes (the machine has already let go of the draft).
  const lastDraft = useRef(state.draft);
  if (state.draft) lastDraft.current = state.draft;
  const draft = lastDraft.current;
  const units = departments?.find((d) => d.id === draft?.departmentId)?.units ?? [];
  const submit = () => admin.send({ type: 'form.submit' });

  return (
    <Modal
      isOpen={state.open}
      onOpenChange={(open) => !open && !state.saving && admin.send({ type: 'form.cancel' })}
      isDismissable={!state.saving}
      title="Edit User"
      footer={
        <>
          <Button isDisabled={state.saving} onPress={() => admin.send({ type: 'form.cancel' })}>
            Cancel
          </Button>
          <Button variant="primary" isDisabled={!state.canSubmit && !state.saving} isPending={state.saving} onPress={submit}>
            {state.saving ? 'Updating...' : 'Update'}
          </Button>
        </>
      }
    >
      {draft && (
        <form
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <TextField
            label="Full Name"
            isRequired
            autoFocus
            value={draft.name}
            onChange={(text) => admin.send(userEvents.typeName(text))}
            errorMessage={state.nameError ?? undefined}
            isDisabled={state.saving}
          />
          <TextField label="Email" type="email" value={draft.email} isReadOnly />
          <Select
            label="Role"
            items={ROLES}
            selectedKey={draft.role}
            onSelectionChange={(key) => key && admin.send(userEvents.pickRole(key as EditableRole))}
            isDisabled={draft.own || state.saving}
            description={draft.own ? OWN_ROLE_UNCHANGEABLE : undefined}
            isRequired
          />
          <Select
            label="Department"
            placeholder={departments ? 'Select a department' : 'Loading departments...'}
            items={(departments ?? []).map((d) => ({ id: d.id, label: d.name }))}
            selectedKey={draft.departmentId}
            onSelectionChange={(departmentId) =>
              admin.send(userEvents.pickDepartment(departmentId, hasUnits(departments, departmentId)))
            }
            isDisabled={!departments || state.saving}
            isRequired
          />
          <Select
            label="Unit"
            placeholder={draft.departmentId ? 'Select a unit' : 'Select a department first'}
            items={units.map((u) => ({ id: u.id, label: u.name }))}
            selectedKey={draft.unitId}
            onSelectionChange={(unitId) => admin.send(userEvents.pickUnit(unitId))}
            isDisabled={!draft.departmentId || state.saving}
            isRequired={units.length > 0}
          />
        </form>
      )}
    </Modal>
  );
}
