import { Button as AriaButton } from 'react-aria-components/Button';
import { FileText, X } from 'lucide-react';
import type { DocumentView } from '../../../contract/documents';
import { fileTypeLabel } from '../../lib/file-type-label';
import { formatFileSize } from '../../lib/format-file-size';
import { Spinner } from '../../ui/spinner';

export interface AttachmentListProps {
  files: DocumentView[];
  /** The file being deleted: its button shows a spinner (spec "Chat input box"). */
  deletingId: string | null;
  /** Whether a delete is taken now (one at a time: the machine's `can`). */
  canDelete: boolean;
  onDelete(id: string): void;
}

/** The files attached to the next message: preview (images) or icon, name, size and type, and a delete button. */
export function AttachmentList({ files, deletingId, canDelete, onDelete }: AttachmentListProps) {
  if (files.length === 0) return null;
  return (
    <ul aria-label="Attached files" className="flex flex-wrap gap-2 px-1 pb-2">
      {files.map((file) => {
        const deleting = file.id === deletingId;
        return (
          <li
            key={file.id}
            className="flex max-w-64 items-center gap-2 rounded-lg border border-gray-200 bg-gray-50 py-1 pr-1 pl-1 dark:border-gray-600 dark:bg-gray-700"
          >
            {file.preview_url ? (
              <img src={file.preview_url} alt={`Preview of ${file.filename}`} className="size-9 shrink-0 rounded object-cover" />
            ) : (
              <span className="flex size-9 shrink-0 items-center justify-center rounded bg-gray-200 dark:bg-gray-600">
                <FileText aria-hidden className="size-4" />
              </span>
            )}
            <span className="min-w-0">
              <span className="block truncate text-sm font-medium" title={file.filename}>
                {file.filename}
              </span>
              <span className="block text-xs text-gray-600 dark:text-gray-300">
                {formatFileSize(file.size)} · {fileTypeLabel(file.filename, file.type)}
              </span>
            </span>
            <AriaButton
              aria-label={`Delete ${file.filename}`}
              isDisabled={deleting || !canDelete}
              onPress={() => onDelete(file.id)}
              className="flex size-7 shrink-0 cursor-pointer items-center justify-center rounded-full text-gray-600 hover:bg-gray-200 data-[disabled]:cursor-not-allowed dark:text-gray-300 dark:hover:bg-gray-600"
            >
              {deleting ? <Spinner className="size-4" label={`Deleting ${file.filename}`} /> : <X aria-hidden className="size-4" />}
            </AriaButton>
          </li>
        );
      })}
    </ul>
  );
}
