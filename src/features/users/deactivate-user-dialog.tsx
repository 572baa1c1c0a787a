import { useRef } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { RecordEditorMachine } from '../../../machines/record-editor.machine';
import type { UserAct } from '../../../machines/users-admin.machine';
import { ConfirmDialog } from '../../ui/confirm-dialog';

/** What the dialog says: deactivating ends the person's access at once (the server refuses an inactive account). */
export const deactivateMessage = (name: string) =>
  `${name} will no longer be able to sign in or use Tanya until their status is switched back to Active.`;

/** 'Deactivate User': the record editor's `confirming` state on the Users page, asked before a switch turns someone off. */
export function DeactivateUserDialog({ admin }: { admin: ActorRefFrom<RecordEditorMachine> }) {
  const { open, pending } = useSelector(
    admin,
    (s) => ({ open: s.matches('confirming'), pending: s.context.target as UserAct | null }),
    (a, b) => a.open === b.open && a.pending === b.pending,
  );
  // The dialog keeps its text while it closes (the machine has already let go of whom it was about).
  const last = useRef(pending);
  if (pending) last.current = pending;
  const name = (last.current?.kind === 'status' && last.current.name) || 'This person';
  return (
    <ConfirmDialog
      isOpen={open}
      onOpenChange={(isOpen) => !isOpen && admin.send({ type: 'act.cancel' })}
      onConfirm={() => admin.send({ type: 'act.confirm' })}
      title="Deactivate User"
      message={deactivateMessage(name)}
      confirmLabel="Deactivate"
    />
  );
}
