import { useRef } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { UsersAdminMachine } from '../../../machines/users-admin.machine';
import { ConfirmDialog } from '../../ui/confirm-dialog';

/** What the dialog says: deactivating ends the person's access at once (the server refuses an inactive account). */
export const deactivateMessage = (name: string) =>
  `${name} will no longer be able to sign in or use Tanya until their status is switched back to Active.`;

/** 'Deactivate User': the users-admin machine's `confirmingDeactivation` state, asked before a switch turns someone off. */
export function DeactivateUserDialog({ admin }: { admin: ActorRefFrom<UsersAdminMachine> }) {
  const { open, pending } = useSelector(
    admin,
    (s) => ({ open: s.matches('confirmingDeactivation'), pending: s.context.deactivating }),
    (a, b) => a.open === b.open && a.pending === b.pending,
  );
  // The dialog keeps its text while it closes (the machine has already let go of whom it was about).
  const last = useRef(pending);
  if (pending) last.current = pending;
  const name = last.current?.name || 'This person';
  return (
    <ConfirmDialog
      isOpen={open}
      onOpenChange={(isOpen) => !isOpen && admin.send({ type: 'deactivation.cancel' })}
      onConfirm={() => admin.send({ type: 'deactivation.confirm' })}
      title="Deactivate User"
      message={deactivateMessage(name)}
      confirmLabel="Deactivate"
    />
  );
}
