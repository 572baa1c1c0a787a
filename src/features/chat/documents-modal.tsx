import { useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Button as AriaButton } from 'react-aria-components/Button';
import { Download, FileText, Trash2 } from 'lucide-react';
import type { DocumentView } from '../../../contract/documents';
import type { conversationDocumentsMachine } from '../../../machines/conversation-documents.machine';
import { pagerView, samePagerView, type PagerMachine } from '../../../machines/pager.machine';
import { fileTypeLabel } from '../../lib/file-type-label';
import { formatDateTime } from '../../lib/format-date';
import { formatFileSize } from '../../lib/format-file-size';
import { shallowEqual } from '../../lib/shallow-equal';
import { ListStatus } from '../../ui/list-status';
import { RetryAlert } from '../../ui/retry-alert';
import { cx } from '../../ui/cx';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Modal } from '../../ui/modal';
import { Spinner } from '../../ui/spinner';
import { Tooltip } from '../../ui/tooltip';
import { DOCUMENTS_FETCH_FAILED } from '../../../contract/documents-constants';

type DocumentsRef = ActorRefFrom<typeof conversationDocumentsMachine>;
type DocumentListRef = ActorRefFrom<PagerMachine>;

/** How often the open dialog checks that the focus has not fallen out of it (after a delete, see below). */
const CHECK_FOCUS_MS = 200;

export interface DocumentsModalProps {
  /** The chat screen's `documents` child, whose modal region is open. */
  documents: DocumentsRef;
  /** Its `list` (the pager of the open conversation's documents). */
  list: DocumentListRef;
}

/** Where the document is when it cannot be asked about yet (or never will). */
function statusText(doc: DocumentView): string | null {
  if (doc.status === 'failed') return `Failed: ${doc.error ?? 'the document could not be read'}`;
  if (doc.status !== 'ready') return 'Processing...';
  return null;
}

const action =
  'flex size-8 shrink-0 cursor-pointer items-center justify-center rounded-md text-gray-700 hover:bg-gray-200 hover:text-gray-900 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-40 dark:text-gray-200 dark:hover:bg-gray-700 dark:hover:text-white';

/**
 * Attached Documents (spec section 2): the open conversation's documents with name, size, type and date, each
 * downloading when clicked and deleted through the 'Delete Document' confirmation. A thin view of the
 * conversation-documents machine.
 */
export function DocumentsModal({ documents, list }: DocumentsModalProps) {
  const listed = useSelector(list, (s) => pagerView<DocumentView>(s), samePagerView);
  const view = useSelector(
    documents,
    (s) => ({
      confirming: s.matches({ conversation: { modal: { open: 'confirmingDelete' } } }),
      deleting: s.hasTag('deleting'),
      deletingId: s.context.deletingId,
      downloadingId: s.context.downloading?.id ?? null,
      canDownload: s.can({ type: 'document.download', id: '', filename: '' }),
    }),
    shallowEqual,
  );
  const items = listed.items;
  // The failure is said (with 'Try again') until a read is under way again.
  const failed = listed.error !== null && !listed.loading;
  const toDelete = items.find((d) => d.id === view.deletingId);
  const close = () => documents.send({ type: 'documents.close' });
  // A deleted document takes its Delete button, where the closing confirmation gives the focus back, with it, and
  // the focus falls out to the page. It is put back in the dialog (on its body), so Escape and Tab still work. When
  // that happens depends on the confirmation's exit transition and on when the list redraws, which on a busy
  // machine came after a single check 300 ms later (3 of 9 deletes in a test): so it is checked until the dialog
  // closes, each CHECK_FOCUS_MS, while no confirmation is open.
  const body = useRef<HTMLDivElement>(null);
  const confirmOpen = view.confirming || view.deleting;
  useEffect(() => {
    if (confirmOpen) return;
    const timer = setInterval(() => {
      const active = document.activeElement;
      if (body.current && (active === null || active === document.body)) body.current.focus();
    }, CHECK_FOCUS_MS);
    return () => clearInterval(timer);
  }, [confirmOpen]);

  return (
    <>
      <Modal isOpen onOpenChange={(open) => !open && close()} title="Attached Documents" size="xl">
        <div ref={body} tabIndex={-1} className="space-y-3 outline-none">
          {failed && <RetryAlert message={DOCUMENTS_FETCH_FAILED} onRetry={() => documents.send({ type: 'documents.retry' })} />}
          <ListStatus
            hasItems={items.length > 0}
            busy={listed.loading}
            loadingLabel="Loading documents"
            empty={failed ? null : 'No documents are attached to this conversation.'}
          />
          {items.length > 0 && (
            <ul aria-label="Documents" className="divide-y divide-gray-200 dark:divide-gray-700">
              {items.map((doc) => {
                const status = statusText(doc);
                const downloading = view.downloadingId === doc.id;
                return (
                  <li key={doc.id} className="relative flex items-center gap-3 rounded-lg px-2 py-2 hover:bg-gray-100 dark:hover:bg-gray-700">
                    <FileText aria-hidden className="size-5 shrink-0 text-gray-500 dark:text-gray-400" />
                    <div className="min-w-0 flex-1">
                      {/* The name is the button; its ::after covers the whole row, so a click anywhere on it downloads. */}
                      <AriaButton
                        isDisabled={!view.canDownload && !downloading}
                        onPress={() => documents.send({ type: 'document.download', id: doc.id, filename: doc.filename })}
                        className="block max-w-full cursor-pointer truncate text-left text-sm font-medium after:absolute after:inset-0 after:rounded-lg data-[disabled]:cursor-wait"
                      >
                        <span className="sr-only">Download </span>
                        {doc.filename}
                      </AriaButton>
                      <p className="text-xs text-gray-600 dark:text-gray-400">
                        {formatFileSize(doc.size)} · {fileTypeLabel(doc.filename, doc.type)} · {formatDateTime(doc.created_at)}
                      </p>
                      {status && (
                        <p className={`text-xs ${doc.status === 'failed' ? 'text-red-700 dark:text-red-400' : 'text-amber-700 dark:text-amber-300'}`}>
                          {status}
                        </p>
                      )}
                      {doc.note && <p className="text-xs text-gray-600 dark:text-gray-400">{doc.note}</p>}
                    </div>
                    {downloading ? (
                      <Spinner className="size-4 shrink-0" />
                    ) : (
                      <Download aria-hidden className="size-4 shrink-0 text-gray-500 dark:text-gray-400" />
                    )}
                    <Tooltip content="Delete document">
                      <AriaButton
                        aria-label={`Delete ${doc.filename}`}
                        onPress={() => documents.send({ type: 'document.delete', id: doc.id })}
                        className={cx(action, 'relative z-10')}
                      >
                        <Trash2 aria-hidden className="size-4" />
                      </AriaButton>
                    </Tooltip>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      </Modal>
      <ConfirmDialog
        isOpen={confirmOpen}
        onOpenChange={(open) => !open && documents.send({ type: 'delete.cancel' })}
        onConfirm={() => documents.send({ type: 'delete.confirm' })}
        isPending={view.deleting}
        title="Delete Document"
        message={toDelete ? `Are you sure you want to delete "${toDelete.filename}"? This cannot be undone.` : undefined}
        confirmLabel="Delete"
      />
    </>
  );
}
