import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { useActorRef, useSelector } from '@xstate/react';
import { chatSendMachine, type ChatSendEmitted } from '../../../machines/chat-send.machine';
import { fetchMessages, fetchRecentMessages } from '../../api/chat';
import { toast } from '../../ui/toast';
import { defineSendMessageActor } from './send-message-actor';

const machine = chatSendMachine.provide({
  actors: {
    loadMessages: fromPromise(({ input, signal }: { input: { conversationId: string }; signal: AbortSignal }) => fetchMessages(input.conversationId, signal)),
    loadRecent: fromPromise(({ input, signal }: { input: { conversationId: string }; signal: AbortSignal }) => fetchRecentMessages(input.conversationId, signal)),
    sendMessage: defineSendMessageActor(),
  },
});

export interface ChatSendHandlers {
  onCreated(conversationId: string): void;
  onExchangeCompleted(conversationId: string, messageCount: number): void;
}

/** The chat-send actor of the chat screen, following the `?id=` of the URL. */
export function useChatSend(conversationId: string | null, handlers: ChatSendHandlers) {
  const navigate = useNavigate();
  const actor = useActorRef(machine, { input: { conversationId } });
  // The latest handlers, without re-subscribing to the actor on every render.
  const handlersRef = useRef(handlers);
  useEffect(() => {
    handlersRef.current = handlers;
  });

  // The URL is the source of truth for which conversation is open; the machine ignores its own id.
  useEffect(() => {
    actor.send({ type: 'conversation.open', conversationId });
  }, [actor, conversationId]);

  useEffect(() => {
    const subs = [
      actor.on('conversation.created', (e: Extract<ChatSendEmitted, { type: 'conversation.created' }>) => {
        handlersRef.current.onCreated(e.conversationId);
        navigate(`/chat?id=${encodeURIComponent(e.conversationId)}`);
      }),
      actor.on('exchange.completed', (e: Extract<ChatSendEmitted, { type: 'exchange.completed' }>) =>
        handlersRef.current.onExchangeCompleted(e.conversationId, e.messageCount),
      ),
      actor.on('messages.refreshed', () => toast.success('Messages refreshed successfully')),
      actor.on('messages.refreshFailed', (e: Extract<ChatSendEmitted, { type: 'messages.refreshFailed' }>) =>
        toast.error(`Failed to refresh messages. ${e.detail}`),
      ),
      actor.on('messages.loadFailed', () => toast.error('Failed to fetch messages')),
    ];
    return () => subs.forEach((s) => s.unsubscribe());
  }, [actor, navigate]);

  const messages = useSelector(actor, (s) => s.context.messages);
  const status = useSelector(
    actor,
    (s) => ({
      loading: s.hasTag('loading'),
      busy: s.hasTag('busy'),
      thinking: s.hasTag('thinking'),
      streaming: s.hasTag('streaming'),
      following: s.hasTag('following'),
      refreshing: s.hasTag('refreshing'),
      networkError: s.context.networkError,
      failureDetail: s.context.failureDetail,
      streamingId: s.context.streamingMessageId,
    }),
    (a, b) => Object.keys(a).every((k) => a[k as keyof typeof a] === b[k as keyof typeof b]),
  );
  return { actor, messages, status };
}

