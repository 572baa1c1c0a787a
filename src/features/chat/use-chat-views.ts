import { useSelector } from '@xstate/react';
import { shallowEqual } from '../../lib/shallow-equal';
import { pagerView, samePagerView } from '../../../machines/pager.machine';
import type { Conversation } from '../../../contract/chat';
import { DEFAULT_OPTIONS } from '../../../machines/chat-screen.machine';
import { replyBeingWrittenId } from '../../../machines/chat-send.machine';
import type { ChatScreenRef } from './use-chat-screen';
import type { ConversationListView } from './conversation-sidebar';

/**
 * Narrow selectors over the chat screen's children: a view re-renders only when what it shows changes. Children
 * are read from the screen's snapshot, never wired to each other here.
 */

export function useChatSendView(screen: ChatScreenRef) {
  const send = useSelector(screen, (s) => s.children.send)!;
  const messages = useSelector(send, (s) => s.context.messages);
  const status = useSelector(
    send,
    (s) => ({
      loading: s.hasTag('loading'),
      // The server has no such conversation for this person: said once in place of the messages.
      notFound: s.hasTag('notFound'),
      busy: s.hasTag('busy'),
      thinking: s.hasTag('thinking'),
      activity: s.context.replyActivity,
      streaming: s.hasTag('streaming'),
      following: s.hasTag('following'),
      refreshing: s.hasTag('refreshing'),
      // The machine decides when an earlier page may load; the list only asks.
      canLoadEarlier: s.can({ type: 'messages.loadEarlier' }),
      canStop: s.can({ type: 'reply.stop' }),
      // The options do not decide whether a reply can be asked for again.
      regenerateId: s.can({ type: 'message.regenerate', ...DEFAULT_OPTIONS }) ? (s.context.messages.at(-1)?.id ?? null) : null,
      loadingEarlier: s.context.loadingEarlier !== null,
      // 'Refresh message' stays on screen while the refresh it started runs.
      networkError: s.hasTag('error') || s.hasTag('refreshing'),
      failureDetail: s.context.failureDetail,
      streamingId: s.context.streamingMessageId,
      writingId: replyBeingWrittenId(s),
      title: s.context.title,
    }),
    shallowEqual,
  );
  return { send, messages, status };
}

export function useConversationListView(screen: ChatScreenRef): ConversationListView {
  const list = useSelector(screen, (s) => s.children.list)!;
  const pagesRef = useSelector(list, (s) => s.children.pages)!;
  const searchRef = useSelector(list, (s) => s.children.search)!;
  const deletingId = useSelector(list, (s) => s.context.deletingId);
  const confirmingDelete = useSelector(list, (s) => s.context.confirmingDelete);
  const pages = useSelector(pagesRef, (s) => pagerView<Conversation>(s), samePagerView);
  const search = useSelector(searchRef, (s) => pagerView<Conversation>(s), samePagerView);
  return {
    conversations: pages.items,
    loading: pages.loading,
    loadingMore: pages.loadingMore,
    hasMore: pages.hasMore,
    searchText: search.searchText,
    inSearch: !search.inactive,
    searchHint: search.hint,
    searchResults: search.items,
    searching: search.searching || search.loadingMore,
    searchHasMore: search.hasMore,
    deletingId,
    confirmingDelete,
  };
}
