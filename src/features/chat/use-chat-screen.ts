import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useActorRef } from '@xstate/react';
import {
  deleteConversation,
  fetchConversations,
  fetchMessages,
  fetchRecentMessages,
  renameConversation,
  searchConversations,
  stopReply,
} from '../../api/chat';
import { preloadStreamRecords, streamMessage } from '../../api/chat-stream';
import { followReply } from '../../api/reply-follow';
import { fetchChatTools } from '../../api/chat-tools';
import { deleteDocument, fetchDocument, fetchDocuments, uploadDocument } from '../../api/documents';
import { createPrompt, deletePrompt, fetchPrompt, fetchPrompts, updatePrompt } from '../../api/prompt-library';
import { createShareLink, revokeShareLink } from '../../api/shares';
import { takeArrivedConversation, takeOpenedConversation } from '../../lib/opened-conversation';
import { saveApiFile } from '../../lib/own-file-download';
import { sessionActor, useSession } from '../../session/session';
import { useNoticeToasts } from '../../ui/use-notice-toasts';
import { afterLoadSettled } from '../../lib/after-load';
import { defineChatScreenMachine } from './chat-screen-actors';

/** The latest page of a conversation the tab was opened on may already be on its way (src/app/conversation-prefetch.ts). */
const fetchMessagesOrOpened: typeof fetchMessages = (id, signal, before) =>
  (before === undefined ? takeOpenedConversation(id) : null) ?? fetchMessages(id, signal, before);

const machine = defineChatScreenMachine({
  api: {
    fetchMessages: fetchMessagesOrOpened,
    fetchRecentMessages,
    streamMessage,
    followReply,
    stopReply,
    createShareLink,
    revokeShareLink,
    fetchPrompts,
    fetchPrompt,
    createPrompt,
    updatePrompt,
    deletePrompt,
    fetchConversations,
    searchConversations,
    renameConversation,
    deleteConversation,
    fetchDocuments,
    deleteDocument,
    uploadDocument,
    fetchDocument,
    saveApiFile,
    fetchChatTools,
    currentUserId: () => sessionActor.getSnapshot().context.user?.id ?? null,
  },
});

// Ready before the first send without weighing on the screen's start (src/api/chat-stream.ts).
afterLoadSettled(preloadStreamRecords);

const chatPath = (conversationId: string | null) => (conversationId ? `/chat?id=${encodeURIComponent(conversationId)}` : '/chat');

/**
 * The chat screen's actor. What it is told from outside the machines: the URL's conversation (the router owns
 * it) and the person's entitlements (the session owns them). What it asks of the page: toasts and navigation.
 */
export function useChatScreen(conversationId: string | null) {
  const navigate = useNavigate();
  const entitlements = useSession((c) => c.user?.features ?? []);
  // A page that arrived while the app booted is shown by the first render (the actor reads its input once).
  const [opened] = useState(() => (conversationId ? takeArrivedConversation(conversationId) : null));
  const screen = useActorRef(machine, { input: { conversationId, entitlements, opened } });

  useEffect(() => {
    screen.send({ type: 'route.changed', conversationId });
  }, [screen, conversationId]);

  useEffect(() => {
    screen.send({ type: 'entitlements.changed', entitlements });
  }, [screen, entitlements]);

  useNoticeToasts(screen);
  useEffect(() => {
    const subs = [
      screen.on('navigation.requested', (e) => navigate(chatPath(e.conversationId))),
    ];
    return () => subs.forEach((s) => s.unsubscribe());
  }, [screen, navigate]);

  return screen;
}

export type ChatScreenRef = ReturnType<typeof useChatScreen>;
