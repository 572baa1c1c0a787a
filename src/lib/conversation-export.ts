import { EXPORT_FAILED } from '../../contract/chat-export';
import { errorText } from '../api/api-error';
import { downloadConversationMarkdown } from '../api/chat-export';
import { toast } from '../ui/toast';
import { saveBlob } from './file-download';

/** The reader's time zone, so the file's times match the screen's; undefined where the browser cannot say. */
function readerTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Downloads a conversation as `<title>.md`. Fire and forget from the chat header, like a document card's download
 * (own-file-download.ts): a failure is a toast with the server's sentence, else 'Failed to export conversation'.
 */
export async function exportConversationMarkdown(conversationId: string): Promise<void> {
  try {
    const { blob, fileName } = await downloadConversationMarkdown(conversationId, readerTimeZone());
    saveBlob(blob, fileName);
  } catch (error) {
    toast.error(errorText(error, EXPORT_FAILED));
  }
}
