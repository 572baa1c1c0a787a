import type { ReactNode } from 'react';
import { X } from 'lucide-react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { Dialog } from 'react-aria-components/Dialog';
import { Heading } from 'react-aria-components/Heading';
import { Modal as AriaModal, ModalOverlay } from 'react-aria-components/Modal';
import { cx } from './cx';

export type ModalSize = 'sm' | 'md' | 'lg' | 'xl' | '2xl' | '3xl' | 'full';

export interface ModalProps {
  isOpen: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  size?: ModalSize;
  children: ReactNode;
  /** Actions row under the body (e.g. Cancel + Save). */
  footer?: ReactNode;
  /** Closes on Escape and on a click outside (default true). False keeps it open until a button closes it. */
  isDismissable?: boolean;
  /** 'alertdialog' for confirmations that interrupt (ConfirmDialog uses it). */
  role?: 'dialog' | 'alertdialog';
  /** Id of the element that describes the dialog. */
  'aria-describedby'?: string;
}

const widths: Record<ModalSize, string> = {
  sm: 'sm:max-w-sm',
  md: 'sm:max-w-md',
  lg: 'sm:max-w-lg',
  xl: 'sm:max-w-xl',
  '2xl': 'sm:max-w-2xl',
  '3xl': 'sm:max-w-3xl',
  full: 'h-dvh max-h-dvh rounded-none sm:h-[calc(100dvh-2rem)] sm:max-h-[calc(100dvh-2rem)] sm:rounded-2xl',
};

/**
 * A modal dialog: a bottom sheet on small screens, centred from `sm` up. The body scrolls, the header and
 * footer stay. Labelled by its title; the close button is named 'Close'.
 */
export function Modal({
  isOpen,
  onOpenChange,
  title,
  size = 'md',
  children,
  footer,
  isDismissable = true,
  role = 'dialog',
  'aria-describedby': describedBy,
}: ModalProps) {
  return (
    <ModalOverlay
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      isDismissable={isDismissable}
      isKeyboardDismissDisabled={!isDismissable}
      data-testid="modal-overlay"
      className={cx(
        'fixed inset-0 z-50 flex items-end justify-center bg-gray-950/50 sm:items-center sm:p-4',
        'transition-opacity duration-150 data-[entering]:opacity-0 data-[exiting]:opacity-0 motion-reduce:transition-none',
      )}
    >
      <AriaModal
        className={cx(
          'flex max-h-[90dvh] w-full flex-col overflow-hidden rounded-t-2xl border border-gray-200 bg-white text-gray-900 shadow-xl',
          'sm:max-h-[calc(100dvh-2rem)] sm:rounded-2xl dark:border-gray-700 dark:bg-gray-900 dark:text-gray-100',
          'transition duration-150 data-[entering]:translate-y-4 data-[exiting]:translate-y-4 motion-reduce:transition-none sm:data-[entering]:translate-y-0 sm:data-[entering]:scale-95 sm:data-[exiting]:translate-y-0 sm:data-[exiting]:scale-95',
          widths[size],
        )}
      >
        <Dialog role={role} aria-describedby={describedBy} className="flex min-h-0 flex-1 flex-col outline-hidden!">
          {({ close }) => (
            <>
              <div className="flex items-start justify-between gap-4 border-b border-gray-200 px-5 py-4 dark:border-gray-700">
                <Heading slot="title" level={2} className="min-w-0 text-lg font-semibold leading-7">
                  {title}
                </Heading>
                <AriaButton
                  aria-label="Close"
                  onPress={close}
                  className="-m-1 flex size-9 shrink-0 cursor-pointer items-center justify-center rounded-lg text-gray-600 hover:bg-gray-100 hover:text-gray-900 dark:text-gray-300 dark:hover:bg-gray-800 dark:hover:text-white"
                >
                  <X aria-hidden="true" className="size-5" />
                </AriaButton>
              </div>
              <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{children}</div>
              {footer && (
                <div className="flex flex-col-reverse gap-2 border-t border-gray-200 px-5 py-3 sm:flex-row sm:justify-end dark:border-gray-700">
                  {footer}
                </div>
              )}
            </>
          )}
        </Dialog>
      </AriaModal>
    </ModalOverlay>
  );
}
