import { useId, type ReactNode } from 'react';
import { Button } from './button';
import { Modal } from './modal';

export interface ConfirmDialogProps {
  isOpen: boolean;
  onOpenChange(open: boolean): void;
  /** Called on Confirm. The dialog does not close itself: close it (at once, or when `isPending` work ends). */
  onConfirm(): void;
  title?: string;
  message?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  variant?: 'danger' | 'primary';
  /** Shows a spinner on Confirm and keeps the dialog open (no Escape, no outside click, Cancel disabled). */
  isPending?: boolean;
}

export function ConfirmDialog({
  isOpen,
  onOpenChange,
  onConfirm,
  title = 'Confirm Action',
  message = 'Are you sure you want to proceed?',
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  variant = 'danger',
  isPending = false,
}: ConfirmDialogProps) {
  const messageId = useId();
  return (
    <Modal
      isOpen={isOpen}
      // While pending, nothing closes it (the close button included).
      onOpenChange={(open) => {
        if (open || !isPending) onOpenChange(open);
      }}
      title={title}
      size="sm"
      role="alertdialog"
      aria-describedby={messageId}
      isDismissable={!isPending}
      footer={
        <>
          <Button variant="secondary" autoFocus isDisabled={isPending} onPress={() => onOpenChange(false)}>
            {cancelLabel}
          </Button>
          <Button variant={variant} isPending={isPending} onPress={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div id={messageId} className="text-sm leading-6 text-gray-700 dark:text-gray-300">
        {message}
      </div>
    </Modal>
  );
}
