import { chatScreenMachine } from '../../../machines/chat-screen.machine';
import { chatSendMachine } from '../../../machines/chat-send.machine';
import { conversationListMachine } from '../../../machines/conversation-list.machine';
import { titlePollMachine } from '../../../machines/title-poll.machine';
import { defineChatSendActors, defineTitlePollActors, type ChatSendApi, type TitlePollApi } from './chat-send-actors';
import { defineConversationListActors, type ConversationListApi } from './conversation-list-actors';
import { defineConversationDocumentsMachine, defineUploadMachine, type ConversationDocumentsApi, type UploadApi } from './documents-actors';
import { definePromptFormMachine, definePromptLibraryMachine, type PromptLibraryApi } from './prompt-library-actors';
import { defineShareMachine, type ShareApi } from './share-actors';
import { defineChatToolsMachine, type ChatToolsApi } from './chat-tools-actors';

export type ChatScreenApi = ChatSendApi &
  TitlePollApi &
  ConversationListApi &
  ShareApi &
  PromptLibraryApi &
  ConversationDocumentsApi &
  UploadApi &
  ChatToolsApi;

/** The chat screen with every child's side effects provided (from `api`: the real client, or fakes in tests). */
export function defineChatScreenMachine({ api }: { api: ChatScreenApi }) {
  return chatScreenMachine.provide({
    actors: {
      send: chatSendMachine.provide({ actors: defineChatSendActors({ api }) }),
      list: conversationListMachine.provide({ actors: defineConversationListActors({ api }) }),
      documents: defineConversationDocumentsMachine({ api }),
      upload: defineUploadMachine({ api }),
      titlePoll: titlePollMachine.provide({ actors: defineTitlePollActors({ api }) }),
      share: defineShareMachine({ api }),
      prompts: definePromptLibraryMachine({ api }),
      savePrompt: definePromptFormMachine({ api }),
      tools: defineChatToolsMachine({ api }),
    },
  });
}
