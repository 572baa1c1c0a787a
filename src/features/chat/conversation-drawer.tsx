import type { ReactNode } from 'react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { Dialog } from 'react-aria-components/Dialog';
import { Heading } from 'react-aria-components/Heading';
import { Modal, ModalOverlay } from 'react-aria-components/Modal';
import { X } from 'lucide-react';

/** Under 768 px the conversation list slides in from the left, titled 'Conversations' (spec section 2). */
export function ConversationDrawer({ isOpen, onOpenChange, children }: { isOpen: boolean; onOpenChange(open: boolean): void; children: ReactNode }) {
  return (
    <ModalOverlay isOpen={isOpen} onOpenChange={onOpenChange} isDismissable className="fixed inset-0 z-50 bg-gray-950/50 md:hidden">
      <Modal className="absolute inset-y-0 left-0 flex w-[300px] max-w-[85vw] flex-col bg-chat-light shadow-xl dark:bg-chat-dark">
        <Dialog aria-label="Conversations" className="flex min-h-0 flex-1 flex-col outline-hidden">
          <div className="flex items-center justify-between border-b border-gray-300 px-4 py-3 dark:border-gray-700">
            <Heading slot="title" level={2} className="text-base font-semibold">
              Conversations
            </Heading>
            <AriaButton aria-label="Close" onPress={() => onOpenChange(false)} className="rounded-lg p-1.5 hover:bg-gray-300 dark:hover:bg-gray-700">
              <X aria-hidden className="size-5" />
            </AriaButton>
          </div>
          {children}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
