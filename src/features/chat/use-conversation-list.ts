import { useEffect, useMemo, useRef } from 'react';
import { fromPromise } from 'xstate';
import { useActorRef, useSelector } from '@xstate/react';
import { type Conversation } from '../../../contract/chat';
import { DEFAULT_CONVERSATION_TITLE } from '../../../contract/chat-constants';
import {
  conversationListMachine,
  DELETE_FAILED,
  RENAME_FAILED,
  type ConversationListEmitted,
} from '../../../machines/conversation-list.machine';
import { deleteConversation, fetchConversations, renameConversation, searchConversations } from '../../api/chat';
import { toast } from '../../ui/toast';
import type { ConversationListView } from './conversation-sidebar';

const machine = conversationListMachine.provide({
  actors: {
    fetchConversations: fromPromise(({ input, signal }: { input: { page: number; pageSize: number }; signal: AbortSignal }) =>
      fetchConversations(input.page, input.pageSize, signal),
    ),
    searchConversations: fromPromise(({ input, signal }: { input: { query: string; page: number; pageSize: number }; signal: AbortSignal }) =>
      searchConversations(input.query, input.page, input.pageSize, signal),
    ),
    renameConversation: fromPromise<Conversation | void, { id: string; title: string }>(({ input }) => renameConversation(input.id, input.title)),
    deleteConversation: fromPromise(({ input }: { input: { id: string } }) => deleteConversation(input.id)),
  },
});

type Emitted<T extends ConversationListEmitted['type']> = Extract<ConversationListEmitted, { type: T }>;

const sameView = (a: ConversationListView, b: ConversationListView) =>
  (Object.keys(a) as Array<keyof ConversationListView>).every((k) => a[k] === b[k]);

/** The conversation-list actor of the chat screen, its toasts, and what the chat tells it. */
export function useConversationList() {
  const actor = useActorRef(machine);
  const afterDelete = useRef(new Map<string, () => void>());

  useEffect(() => {
    actor.send({ type: 'list.load' });
    const subs = [
      actor.on('list.failed', (e: Emitted<'list.failed'>) => toast.error(e.message)),
      actor.on('rename.invalid', (e: Emitted<'rename.invalid'>) => toast.error(e.message)),
      actor.on('rename.succeeded', () => toast.success('Conversation renamed successfully')),
      actor.on('rename.failed', () => toast.error(RENAME_FAILED)),
      actor.on('deleted', (e: Emitted<'deleted'>) => {
        toast.success('Conversation deleted successfully');
        afterDelete.current.get(e.id)?.();
        afterDelete.current.delete(e.id);
      }),
      actor.on('delete.failed', (e: Emitted<'delete.failed'>) => {
        toast.error(DELETE_FAILED);
        afterDelete.current.delete(e.id);
      }),
    ];
    return () => subs.forEach((s) => s.unsubscribe());
  }, [actor]);

  const view = useSelector(
    actor,
    (s): ConversationListView => ({
      conversations: s.context.conversations,
      searchResults: s.context.searchResults,
      searchText: s.context.searchText,
      loading: s.hasTag('loading'),
      loadingMore: s.hasTag('loadingMore'),
      hasMore: s.context.page < s.context.totalPages,
      searching: s.hasTag('searching') || s.hasTag('searchLoadingMore'),
      searchHasMore: s.context.searchResults.length < s.context.searchTotal,
      deletingId: s.context.deletingId,
    }),
    sameView,
  );

  const api = useMemo(() => {
    const find = (id: string) => actor.getSnapshot().context.conversations.find((c) => c.id === id);
    const upsert = (conversation: Conversation) => actor.send({ type: 'conversation.upsert', conversation });
    const now = () => new Date().toISOString();
    return {
      search: (text: string) => actor.send({ type: 'search.change', text }),
      loadMore: () => actor.send({ type: 'list.loadMore' }),
      searchLoadMore: () => actor.send({ type: 'search.loadMore' }),
      rename: (id: string, title: string) => actor.send({ type: 'conversation.rename', id, title }),
      remove(id: string, onDeleted: () => void) {
        afterDelete.current.set(id, onDeleted);
        actor.send({ type: 'conversation.delete', id });
      },
      /** A conversation the chat just created: at the top, with the default title until the server names it. */
      addNew: (id: string) => upsert({ id, title: DEFAULT_CONVERSATION_TITLE, created_at: now(), updated_at: now() }),
      /** A reply finished: the conversation is the most recently active. */
      touch(id: string) {
        const known = find(id);
        if (known) upsert({ ...known, updated_at: now() });
      },
      upsertTitle(id: string, title: string) {
        const known = find(id);
        upsert({ ...(known ?? { id, created_at: now(), updated_at: now() }), title });
      },
    };
  }, [actor]);

  return { actor, view, ...api };
}
