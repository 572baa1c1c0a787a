import { FileText, Image as ImageIcon } from 'lucide-react';
import type { MessageDocument } from '../../../contract/chat';
import { fileTypeLabel } from '../../lib/file-type-label';

/**
 * The files a question carried, as chips under it (name and type): from the moment it is sent (the composer's
 * list) and after a reload (the server's message pages). Not links: the Attached Documents modal downloads them.
 */
export function MessageFiles({ documents }: { documents: MessageDocument[] }) {
  return (
    <ul aria-label="Files sent with this message" className="flex max-w-[85%] flex-wrap justify-end gap-1.5">
      {documents.map((d) => {
        const Icon = d.type.startsWith('image/') ? ImageIcon : FileText;
        return (
          <li
            key={d.id}
            className="flex max-w-60 items-center gap-1.5 rounded-lg border border-gray-300 bg-white px-2 py-1 text-xs text-gray-800 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100"
          >
            <Icon aria-hidden className="size-3.5 shrink-0" />
            <span className="truncate font-medium" title={d.filename}>
              {d.filename}
            </span>
            <span className="shrink-0 text-gray-600 dark:text-gray-300">{fileTypeLabel(d.filename, d.type)}</span>
          </li>
        );
      })}
    </ul>
  );
}
