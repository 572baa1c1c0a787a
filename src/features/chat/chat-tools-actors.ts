import { fromPromise } from 'xstate';
import type { ChatTools } from '../../../contract/chat-tools';
import { chatToolsMachine } from '../../../machines/chat-tools.machine';
import type { fetchChatTools } from '../../api/chat-tools';

export interface ChatToolsApi {
  fetchChatTools: typeof fetchChatTools;
}

/** What the server's chat tools can do (machines/chat-tools.machine.ts) with its call. */
export function defineChatToolsMachine({ api }: { api: ChatToolsApi }) {
  return chatToolsMachine.provide({
    actors: { loadTools: fromPromise<ChatTools, void>(({ signal }) => api.fetchChatTools(signal)) },
  });
}
