import { CHAT_TOOLS_PATH, type ChatTools } from '../../contract/chat-tools';
import { api } from './http';

/** GET /chat/tools: what the chat's tools can do on this server (browsing set up, demo images). */
export async function fetchChatTools(signal?: AbortSignal): Promise<ChatTools> {
  return (await api.get<ChatTools>(CHAT_TOOLS_PATH, { signal })).data;
}
