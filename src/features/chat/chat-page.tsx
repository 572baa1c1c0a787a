import { useCallback, useEffect, useState } from 'react';
import { NavLink, useNavigate, useSearchParams } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import { LogOut } from 'lucide-react';
import { DEFAULT_CONVERSATION_TITLE } from '../../../contract/chat-constants';
import { ProfileMenu } from '../../session/profile-menu';
import { useSession } from '../../session/session';
import { DEFAULT_FEATURES, type ChatFeatures } from '../../lib/chat-features';
import { useFrameSelector } from '../../lib/use-frame-selector';
import { cx } from '../../ui/cx';
import { Spinner } from '../../ui/spinner';
import { ChatHeader } from './chat-header';
import { ChatInput } from './chat-input';
import { ConversationDrawer } from './conversation-drawer';
import { ConversationPanel, type ConversationPanelProps } from './conversation-sidebar';
import { MessageList } from './message-list';
import { useChatSend } from './use-chat-send';
import { useConversationList } from './use-conversation-list';
import { useTitlePolling } from './use-title-polling';

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

/** /chat and /chat?id=…: the conversation list beside the conversation, or the new-chat screen. */
export default function ChatPage() {
  const [params] = useSearchParams();
  const conversationId = params.get('id');
  const navigate = useNavigate();
  const me = useSession((c) => ({ role: c.user?.role ?? 'user', packageName: c.user?.package_name ?? 'free' }));
  const isUserRole = me.role === 'user';
  const [features, setFeatures] = useState<ChatFeatures>(DEFAULT_FEATURES);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [collapsed, setCollapsed] = useState(false);

  const list = useConversationList();
  const polling = useTitlePolling(list.upsertTitle);

  const chat = useChatSend(conversationId, {
    onCreated: (id) => list.addNew(id),
    onExchangeCompleted: (id, count) => {
      list.touch(id);
      // Spec: after the first exchange (2 messages) poll for the title the server makes.
      if (count === 2) polling.start(id);
    },
  });
  const liveText = useFrameSelector(chat.actor, (s) => s.context.streamingText);
  const loadedTitle = useSelector(chat.actor, (s) => s.context.title);

  // Leaving a conversation stops its title polling, and closes the mobile drawer.
  useEffect(() => {
    polling.stopUnless(conversationId);
    setDrawerOpen(false);
  }, [conversationId, polling]);

  const newChat = useCallback(() => navigate('/chat'), [navigate]);
  const submit = (text: string) => {
    if (!chat.actor.getSnapshot().can({ type: 'message.submit', text, ...features })) return false;
    chat.actor.send({ type: 'message.submit', text, ...features });
    return true;
  };
  const edit = useCallback(
    (messageId: string, text: string) => chat.actor.send({ type: 'message.edit', messageId, text, ...features }),
    [chat.actor, features],
  );

  const panelProps: ConversationPanelProps = {
    view: list.view,
    activeId: conversationId,
    onNewChat: newChat,
    onSearchChange: list.search,
    onLoadMore: list.loadMore,
    onSearchLoadMore: list.searchLoadMore,
    onRename: list.rename,
    onDelete: (id) => list.remove(id, () => id === conversationId && navigate('/chat')),
    footer: isUserRole ? <UserFooter /> : undefined,
  };
  const active = list.view.conversations.find((c) => c.id === conversationId) ?? null;
  const isNew = conversationId === null && chat.messages.length === 0;

  return (
    <div className={cx('flex bg-chat-light text-gray-900 dark:bg-chat-dark dark:text-gray-100', isUserRole ? 'h-dvh' : 'h-[calc(100dvh-3.5rem)] md:h-dvh')}>
      {!collapsed && (
        <aside aria-label="Conversation list" className="hidden w-[300px] shrink-0 border-r border-gray-300 md:flex md:flex-col dark:border-gray-700">
          <ConversationPanel {...panelProps} onCollapse={() => setCollapsed(true)} />
        </aside>
      )}
      <ConversationDrawer isOpen={drawerOpen} onOpenChange={setDrawerOpen}>
        <ConversationPanel {...panelProps} />
      </ConversationDrawer>
      <section aria-label="Chat" className="flex min-w-0 flex-1 flex-col">
        <ChatHeader
          // The list's title is the freshest (renames, the polled title); an older conversation may not be in it.
          title={conversationId ? (active?.title ?? loadedTitle ?? DEFAULT_CONVERSATION_TITLE) : null}
          isUserRole={isUserRole}
          panelCollapsed={collapsed}
          onExpandPanel={() => setCollapsed(false)}
          onOpenDrawer={() => setDrawerOpen(true)}
          onNewChat={newChat}
        />
        {isNew ? (
          <div className="flex flex-1 flex-col items-center justify-center gap-6 overflow-y-auto px-4 pb-[10vh]">
            <h2 className="text-center text-2xl font-semibold sm:text-3xl">How can I help you today?</h2>
            <div className="w-full max-w-3xl">
              <ChatInput
                isNewChat
                isSubmitting={chat.status.busy}
                userPackage={me.packageName}
                features={features}
                onFeaturesChange={setFeatures}
                onSubmit={submit}
              />
            </div>
          </div>
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
                liveText={liveText}
                isThinking={chat.status.thinking}
                isBusy={chat.status.busy}
                isStreaming={chat.status.streaming || chat.status.following}
                networkError={chat.status.networkError}
                failureDetail={chat.status.failureDetail}
                isRefreshing={chat.status.refreshing}
                onEdit={edit}
                onRefresh={() => chat.actor.send({ type: 'messages.refresh' })}
              />
            )}
            <div className="mx-auto w-full max-w-3xl px-4 pb-4">
              <ChatInput
                isNewChat={false}
                isSubmitting={chat.status.busy || chat.status.loading}
                userPackage={me.packageName}
                features={features}
                onFeaturesChange={setFeatures}
                onSubmit={submit}
              />
            </div>
          </>
        )}
      </section>
    </div>
  );
}
