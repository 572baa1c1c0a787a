import { pathTo } from '../../contract/api-paths';
import { CONVERSATION_EXPORT_PATH, EXPORT_FALLBACK_NAME } from '../../contract/chat-export';
import { fileNameFrom } from '../lib/file-download';
import { api } from './http';

/**
 * GET /chat/conversations/{id}/export.md: the whole conversation as Markdown (the server reads every message, not
 * the pages this screen has loaded), with times in `timeZone`; named as the server names it.
 */
export async function downloadConversationMarkdown(id: string, timeZone: string | undefined): Promise<{ blob: Blob; fileName: string }> {
  const response = await api.download(pathTo(CONVERSATION_EXPORT_PATH, { id }), { query: { time_zone: timeZone } });
  return { blob: await response.blob(), fileName: fileNameFrom(response.headers.get('content-disposition'), EXPORT_FALLBACK_NAME) };
}
