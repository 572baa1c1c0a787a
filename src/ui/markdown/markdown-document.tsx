import { useState, type MouseEvent } from 'react';
import { Download, FileText, LoaderCircle } from 'lucide-react';
import { isOwnFileUrl } from '../../../shared/markers';
import { useFileDownload } from './file-download-context';
import { PAGE_FILE_SCOPE } from './remark-markers';

export interface MarkdownDocumentProps {
  /** One of the server's own file URLs (remarkMarkers made other ones links); '' when the marker had none. */
  url: string;
  name: string;
}

const look =
  'my-1 inline-flex max-w-full items-center gap-2 rounded-lg border border-gray-200 bg-white px-3 py-2 text-sm font-medium text-gray-900 no-underline! ' +
  'dark:border-gray-700 dark:bg-gray-800 dark:text-gray-100';

/**
 * A document marker: a download link with a file icon and the file name. Our document URLs need the bearer
 * token, so where the page provides an authenticated download (FileDownloadContext) a click goes through it; the
 * card stays a real link (focus, Enter, the screen reader's "link") and without a provider it is a plain one.
 */
export function MarkdownDocument({ url, name }: MarkdownDocumentProps) {
  const download = useFileDownload();
  const [busy, setBusy] = useState(false);
  // Checked again here: a download card only ever offers one of our own files.
  if (!url || !isOwnFileUrl(url, PAGE_FILE_SCOPE)) {
    return (
      <span className={look}>
        <FileText aria-hidden="true" className="size-4 shrink-0 text-gray-500" />
        <span className="truncate">{name}</span>
      </span>
    );
  }
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // A modified click (new tab, save link as...) is the browser's; a plain one downloads with the token.
    if (!download || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    void download(url, name).finally(() => setBusy(false));
  };
  const Icon = busy ? LoaderCircle : Download;
  return (
    <a
      href={url}
      download={name}
      onClick={onClick}
      aria-busy={busy || undefined}
      className={`${look} hover:bg-gray-50 dark:hover:bg-gray-700`}
    >
      <FileText aria-hidden="true" className="size-4 shrink-0 text-gray-500 dark:text-gray-400" />
      <span className="truncate">{name}</span>
      <Icon aria-hidden="true" className={`size-4 shrink-0 text-gray-500 dark:text-gray-400 ${busy ? 'animate-spin' : ''}`} />
    </a>
  );
}
