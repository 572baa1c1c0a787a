import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { NavLink, useNavigate, useSearchParams } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import { shallowEqual } from '../../lib/shallow-equal';
import { LogOut } from 'lucide-react';
import { headerTitle, type OptionFeature } from '../../../machines/chat-screen.machine';
import { uploadStageOf } from '../../../machines/upload.machine';
import { ProfileMenu } from '../../session/profile-menu';
import { useSession } from '../../session/session';
import { useAfterFirstPaint } from '../../lib/use-after-first-paint';
import { cx } from '../../ui/cx';
import { Spinner } from '../../ui/spinner';
import { ChatHeader } from './chat-header';
import { ChatInput, type ChatInputProps } from './chat-input';
import { ShareModal } from './share-modal';
import { DocumentsModal } from './documents-modal';
import { downloadOwnFile } from '../../lib/own-file-download';
import { FileDownloadContext } from '../../ui/markdown/file-download-context';
import { PromptFormModal } from './prompt-form-modal';
import { ConversationDrawer } from './conversation-drawer';
import { ConversationPanel, DeleteConversationDialog, type ConversationPanelProps } from './conversation-sidebar';
import { MessageList } from './message-list';
import { ConversationNotFound, CONVERSATION_NOT_FOUND } from './conversation-not-found';
import { useChatScreen } from './use-chat-screen';
import { useDocumentTitle } from '../../ui/page-title';
import { useChatSendView, useConversationListView } from './use-chat-views';

// Its code loads when first opened: the chat route stays light.
const PromptLibraryModal = lazy(() => import('./prompt-library-modal'));

function UserFooter() {
  return (
    <div className="space-y-1">
      <ProfileMenu />
      <NavLink to="/logout" className="flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-gray-700 hover:bg-gray-200 dark:text-gray-200 dark:hover:bg-gray-700">
        <LogOut aria-hidden className="size-4" /> Logout
      </NavLink>
    </div>
  );
}

/** Document cards in messages download with the token (a plain link cannot send it). */
export default function ChatPage() {
  return (
    <FileDownloadContext value={downloadOwnFile}>
      <ChatScreen />
    </FileDownloadContext>
  );
}

/**
 * /chat and /chat?id=…: the conversation list beside the conversation, or the new-chat screen. A thin view of
 * the chat-screen machine: it renders what the machine and its children hold and sends the person's actions.
 */
function ChatScreen() {
  const [params] = useSearchParams();
  const conversationId = params.get('id');
  const navigate = useNavigate();
  const isUserRole = useSession((c) => (c.user?.role ?? 'user') === 'user');

  const screen = useChatScreen(conversationId);
  const ui = useSelector(
    screen,
    (s) => ({
      drawerOpen: s.hasTag('drawerOpen'),
      collapsed: s.hasTag('panelCollapsed'),
      options: s.context.options,
      browsing: s.can({ type: 'option.toggle', feature: 'browsing' }),
      imageGeneration: s.can({ type: 'option.toggle', feature: 'imageGeneration' }),
      reasoning: s.can({ type: 'reasoning.toggle' }),
      // The screen's own guard reads only whether files are attaching (the send child judges the text).
      sendAllowed: s.can({ type: 'message.submit', text: '' }),
    }),
    shallowEqual,
  );
  const chat = useChatSendView(screen);
  const share = useSelector(screen, (s) => s.children.share);
  const upload = useSelector(screen, (s) => s.children.upload)!;
  const attached = useSelector(
    upload,
    (s) => ({ files: s.context.files, deletingId: s.context.deletingDocumentId, canDelete: !s.hasTag('deleting'), stage: uploadStageOf(s) }),
    shallowEqual,
  );
  const documents = useSelector(screen, (s) => s.children.documents)!;
  // The open conversation's list (none on a new chat): the header counts what it holds.
  const documentList = useSelector(documents, (s) => s.children.list);
  const documentCount = useSelector(documentList, (s) => s?.context.total ?? 0);
  const documentsOpen = useSelector(documents, (s) => s.matches({ conversation: { modal: 'open' } }));
  const toolsChild = useSelector(screen, (s) => s.children.tools);
  const tools = useSelector(toolsChild, (s) => s?.context.tools ?? null);
  const prompts = useSelector(screen, (s) => s.children.prompts);
  const savePrompt = useSelector(screen, (s) => s.children.savePrompt);
  // The machine asks for a pasted prompt to go into the input box, which owns what is typed.
  const [fill, setFill] = useState<{ text: string; at: number } | null>(null);
  useEffect(() => {
    const sub = screen.on('composer.fill', (e) => setFill({ text: e.text, at: Date.now() }));
    return () => sub.unsubscribe();
  }, [screen]);
  const list = useConversationListView(screen);
  // The conversation panel is drawn a frame after the conversation: opening a conversation paints its messages
  // first (the panel's list is on its way from the server anyway; its width is kept, so nothing moves).
  const panelReady = useAfterFirstPaint();

  // New Chat puts the focus in the message box, also when the new chat is already open (nothing else changes then).
  const [focusRequest, setFocusRequest] = useState(0);
  const newChat = useCallback(() => {
    screen.send({ type: 'drawer.close' });
    navigate('/chat');
    setFocusRequest((n) => n + 1);
  }, [navigate, screen]);
  // The send child decides whether it takes a message now (not while replying, text not blank); the screen
  // whether files are attaching.
  const canSubmit = (text: string) => {
    const options = screen.getSnapshot().context.options;
    return screen.getSnapshot().can({ type: 'message.submit', text }) && chat.send.getSnapshot().can({ type: 'message.submit', text, ...options });
  };
  const submit = (text: string) => {
    if (!canSubmit(text)) return false;
    screen.send({ type: 'message.submit', text });
    // The pasted prompt has been sent: a box drawn afresh (the new conversation's) must not show it again.
    setFill(null);
    return true;
  };
  const edit = useCallback((messageId: string, text: string) => screen.send({ type: 'message.edit', messageId, text }), [screen]);
  const loadEarlier = useCallback(() => screen.send({ type: 'messages.loadEarlier' }), [screen]);
  const regenerate = useCallback(() => screen.send({ type: 'message.regenerate' }), [screen]);
  const saveToLibrary = useCallback((text: string) => screen.send({ type: 'prompt.saveOpen', text }), [screen]);

  const panelProps: ConversationPanelProps = {
    view: list,
    activeId: conversationId,
    onNewChat: newChat,
    onSearchChange: (text) => screen.send({ type: 'search.change', text }),
    onLoadMore: () => screen.send({ type: 'list.loadMore' }),
    onSearchLoadMore: () => screen.send({ type: 'search.loadMore' }),
    onRename: (id, title) => screen.send({ type: 'conversation.rename', id, title }),
    onAskDelete: (c) => screen.send({ type: 'conversation.askDelete', id: c.id, title: c.title }),
    footer: isUserRole ? <UserFooter /> : undefined,
  };
  const inputProps: Omit<ChatInputProps, 'isNewChat' | 'isSubmitting'> = {
    options: ui.options,
    allowed: { browsing: ui.browsing, imageGeneration: ui.imageGeneration, reasoning: ui.reasoning },
    tools,
    onToggleOption: (feature: OptionFeature) => screen.send({ type: 'option.toggle', feature }),
    onToggleReasoning: () => screen.send({ type: 'reasoning.toggle' }),
    onSubmit: submit,
    stop: chat.status.busy ? { canStop: chat.status.canStop, onStop: () => screen.send({ type: 'reply.stop' }) } : undefined,
    onOpenPrompts: () => screen.send({ type: 'prompts.open' }),
    isAttaching: !ui.sendAllowed,
    attachments: {
      ...attached,
      onAdd: (files: File[]) => screen.send({ type: 'files.add', files }),
      onDelete: (id: string) => screen.send({ type: 'file.delete', id }),
    },
    fill,
    onFilled: (ok: boolean) => screen.send({ type: ok ? 'composer.filled' : 'composer.fillFailed' }),
    canSend: canSubmit,
    focusRequest,
  };
  const listed = list.conversations.find((c) => c.id === conversationId)?.title;
  const isNew = conversationId === null && chat.messages.length === 0;
  // A conversation the server does not have for this person is named so, in the header and the tab.
  const title = chat.status.notFound ? CONVERSATION_NOT_FOUND : headerTitle(conversationId, listed, chat.status.title);
  // The tab is named after the conversation, as the header is.
  useDocumentTitle(title ?? 'New chat');

  return (
    <div className={cx('flex bg-chat-light text-gray-900 dark:bg-chat-dark dark:text-gray-100', isUserRole ? 'h-dvh' : 'h-[calc(100dvh-3.5rem)] md:h-dvh')}>
      {!ui.collapsed && (
        <aside aria-label="Conversation list" className="hidden w-[300px] shrink-0 border-r border-gray-300 md:flex md:flex-col dark:border-gray-700">
          {panelReady && <ConversationPanel {...panelProps} onCollapse={() => screen.send({ type: 'panel.collapse' })} />}
        </aside>
      )}
      <ConversationDrawer isOpen={ui.drawerOpen} onOpenChange={(open) => screen.send({ type: open ? 'drawer.open' : 'drawer.close' })}>
        <ConversationPanel {...panelProps} />
      </ConversationDrawer>
      <DeleteConversationDialog
        view={list}
        onCancel={() => screen.send({ type: 'conversation.cancelDelete' })}
        onDelete={(id) => screen.send({ type: 'conversation.delete', id })}
      />
      <section aria-label="Chat" className="flex min-w-0 flex-1 flex-col">
        <ChatHeader
          title={title}
          isUserRole={isUserRole}
          panelCollapsed={ui.collapsed}
          onExpandPanel={() => screen.send({ type: 'panel.expand' })}
          onOpenDrawer={() => screen.send({ type: 'drawer.open' })}
          onNewChat={newChat}
          onShare={() => screen.send({ type: 'share.open' })}
          // A new chat has no documents list yet: the files attached for its first message are its documents.
          documentsCount={conversationId === null ? attached.files.length : documentCount}
          onOpenDocuments={() => documents.send({ type: 'documents.open' })}
          hasConversationActions={!chat.status.notFound}
        />
        {documentsOpen && documentList && <DocumentsModal documents={documents} list={documentList} />}
        {share && <ShareModal share={share} onClose={() => screen.send({ type: 'share.close' })} />}
        {prompts && (
          <Suspense fallback={null}>
            <PromptLibraryModal library={prompts} onClose={() => screen.send({ type: 'prompts.close' })} />
          </Suspense>
        )}
        {savePrompt && (
          <PromptFormModal form={savePrompt} title="Save to Personal Prompt Library" onCancel={() => screen.send({ type: 'prompt.saveClose' })} />
        )}
        {isNew ? (
          <div className="flex flex-1 flex-col items-center justify-center gap-6 overflow-y-auto px-4 pb-[10vh]">
            <h2 className="text-center text-2xl font-semibold sm:text-3xl">How can I help you today?</h2>
            <div className="w-full max-w-3xl">
              <ChatInput isNewChat isSubmitting={chat.status.busy} {...inputProps} />
            </div>
          </div>
        ) : chat.status.notFound ? (
          <ConversationNotFound onNewChat={newChat} />
        ) : (
          <>
            {chat.status.loading ? (
              <div className="flex flex-1 items-center justify-center">
                <Spinner label="Loading messages" />
              </div>
            ) : (
              <MessageList
                messages={chat.messages}
                streamingId={chat.status.streamingId}
                writingId={chat.status.writingId}
                send={chat.send}
                isThinking={chat.status.thinking}
                activity={chat.status.activity}
                isBusy={chat.status.busy}
                isStreaming={chat.status.streaming || chat.status.following}
                networkError={chat.status.networkError}
                failureDetail={chat.status.failureDetail}
                isRefreshing={chat.status.refreshing}
                canLoadEarlier={chat.status.canLoadEarlier}
                isLoadingEarlier={chat.status.loadingEarlier}
                onLoadEarlier={loadEarlier}
                onEdit={edit}
                onSavePrompt={saveToLibrary}
                regenerateId={chat.status.regenerateId}
                onRegenerate={regenerate}
                onRefresh={() => screen.send({ type: 'messages.refresh' })}
              />
            )}
            <div className="mx-auto w-full max-w-3xl px-4 pb-4">
              <ChatInput isNewChat={false} isSubmitting={chat.status.busy || chat.status.loading} {...inputProps} />
            </div>
          </>
        )}
      </section>
    </div>
  );
}
