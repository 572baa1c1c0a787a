import { DOCUMENT_DOWNLOAD_FAILED } from '../../machines/conversation-documents.machine';
import { errorText } from '../api/api-error';
import { apiPathOf, downloadFile } from '../api/documents';
import { toast } from '../ui/toast';
import { saveBlob } from './file-download';

/** Fetches one of our files (an API path) with the token and hands it to the browser's download. */
export async function saveApiFile(path: string, name: string): Promise<void> {
  const { blob, fileName } = await downloadFile(path, name);
  saveBlob(blob, fileName);
}

/**
 * The FileDownloadContext of the pages that show messages: a document card's URL downloaded with the token. A
 * failure is a toast (the server's sentence, e.g. 'Document not found', else 'Failed to download document').
 */
export async function downloadOwnFile(url: string, name: string): Promise<void> {
  try {
    const path = apiPathOf(url);
    if (path === null) throw new Error(`not one of our files: ${url}`);
    await saveApiFile(path, name);
  } catch (error) {
    toast.error(errorText(error, DOCUMENT_DOWNLOAD_FAILED));
  }
}
