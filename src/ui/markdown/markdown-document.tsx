import { Download, FileText } from 'lucide-react';
import { isOwnFileUrl } from '../../../contract/markers';
import { PAGE_FILE_SCOPE } from './remark-markers';

export interface MarkdownDocumentProps {
  /** One of the server's own file URLs (remarkMarkers made other ones links); '' when the marker had none. */
  url: string;
  name: string;
}

const look =
  'my-1 inline-flex max-w-full items-center gap-2 rounded-lg border border-gray-200 bg-white px-3 py-2 text-sm font-medium text-gray-900 no-underline! ' +
  'dark:border-gray-700 dark:bg-gray-800 dark:text-gray-100';

/** A document marker: a download link with a file icon and the file name. */
export function MarkdownDocument({ url, name }: MarkdownDocumentProps) {
  // Checked again here: a download card only ever offers one of our own files.
  if (!url || !isOwnFileUrl(url, PAGE_FILE_SCOPE)) {
    return (
      <span className={look}>
        <FileText aria-hidden="true" className="size-4 shrink-0 text-gray-500" />
        <span className="truncate">{name}</span>
      </span>
    );
  }
  return (
    <a href={url} download={name} className={`${look} hover:bg-gray-50 dark:hover:bg-gray-700`}>
      <FileText aria-hidden="true" className="size-4 shrink-0 text-gray-500 dark:text-gray-400" />
      <span className="truncate">{name}</span>
      <Download aria-hidden="true" className="size-4 shrink-0 text-gray-500 dark:text-gray-400" />
    </a>
  );
}
