import { and, assertEvent, assign, emit, enqueueActions, fromCallback, setup, spawnChild, stopChild, type ErrorActorEvent, type EventObject } from 'xstate';
import { notProvided } from './not-provided';
import { errorMarker } from '../contract/markers';
import { UNKNOWN_STREAM_ERROR } from '../contract/chat-constants';
import type { ChatMessage, ConversationMessages, ReasoningEffort, StreamErrorType, Usage } from '../contract/chat';

/**
 * One conversation's messages and the send/stream cycle (spec chat-and-session.md section 4, "Sending a
 * message" and "Editing a user message").
 *
 * Top-level states (a contract with the views): `loading`, `idle`, `thinking`, `streaming`, `networkError`,
 * `refreshing`, `following`, plus `opening`, a transient state that is never observed in a snapshot (it picks
 * `loading` or `idle` at start and after `conversation.open`). `following` has two child states, `waiting` and
 * `fetching` (match it with `matches('following')` or its tag, not with `value === 'following'`).
 *
 * Tags: `loading` (loading), `busy` + `thinking` (thinking), `busy` + `streaming` (streaming), `error`
 * (networkError), `refreshing` (refreshing), `busy` + `following` (following).
 *
 * ## The live streaming text
 * While a reply is pending (tags `thinking`/`streaming`) the pending assistant message is the last entry of
 * `context.messages`, its id is `context.streamingMessageId`, its status is 'streaming' and its `content`
 * stays '' — the text received so far is in `context.streamingText`, so a chunk changes one string and never
 * copies the messages array (a `useSelector` on `messages` does not re-render per chunk). When the reply ends
 * (done, server error or network failure) the text is written into the message's `content` once and
 * `streamingMessageId` becomes null. A view renders a message with {@link displayedContent}:
 * `message.id === context.streamingMessageId ? context.streamingText : message.content`.
 *
 * ## The send actor
 * One request spans two top-level states (`thinking` and `streaming`), so `sendMessage` cannot be a state's
 * `invoke`: it is spawned with `spawnChild('sendMessage', { id: 'sendMessage' })` on entering `thinking` and
 * stopped (`stopChild`, which runs the callback's cleanup = aborts the request) whenever the machine leaves
 * `thinking`/`streaming` other than thinking -> streaming, including on `conversation.open`. While it runs it
 * is `snapshot.children.sendMessage`. It must report every outcome with `sendBack`: `stream.control`, then
 * `stream.chunk`s, then `stream.done`, or `stream.error` (server-reported), or `stream.failed` (network). An
 * exception thrown by the callback itself (`xstate.error.actor.sendMessage`) is treated as `stream.failed`
 * with phase 'request' in thinking and 'stream' in streaming.
 *
 * A server-reported `stream.error` ends the reply at once (-> idle, message status 'error', content from
 * {@link streamErrorContent}); the `done` record the server sends right after it is not awaited (the server has
 * saved the reply before sending either). `exchange.completed` is emitted on `stream.done`, and when a followed
 * reply of a two-message conversation completes (see below).
 *
 * ## Following a reply written elsewhere
 * The server finishes and saves a reply even when its browser went away. When the loaded messages (`loadMessages`
 * in `loading`, or the merged `loadRecent` result in `refreshing`) contain an assistant message with status
 * 'streaming' (a reload or another tab mid-reply), the machine enters `following` instead of `idle`: no send
 * actor runs, `streamingMessageId` stays null and the partial reply is the message's own `content`, so a view
 * renders it as usual. `following.waiting` waits FOLLOW_INTERVAL ({@link FOLLOW_INTERVAL_MS}), then
 * `following.fetching` invokes `loadRecent` (id `loadRecent`) and merges its result as `refreshing` does. No
 * 'streaming' message left -> `idle`, emitting `exchange.completed` only when the conversation now has exactly 2
 * messages (its first exchange: the view starts title polling); still streaming -> `waiting` again, up to
 * {@link MAX_FOLLOW_ATTEMPTS} polls, then `idle` with the message left as loaded. A failed poll -> `networkError`
 * with `networkError` set and the messages untouched (nothing emitted; Refresh recovers, and follows again if the
 * reply is still being written). `message.submit`/`message.edit`/`messages.refresh` are not accepted in
 * `following`; `conversation.open` leaves it like any state (the timer and the request are cancelled).
 */

/** The time between two polls while following a reply written elsewhere (the `FOLLOW_INTERVAL` delay). */
export const FOLLOW_INTERVAL_MS = 1000;
/** Polls before giving up on a followed reply (ten minutes at FOLLOW_INTERVAL_MS). */
export const MAX_FOLLOW_ATTEMPTS = 600;

/** The POST /api/v1/chat/messages body (contract SendMessageRequest, every field given; sender is always 'user'). */
export interface SendMessageInput {
  conversation_id: string | null;
  message: string;
  browsing: boolean;
  image_generation: boolean;
  reasoning_effort: ReasoningEffort;
  message_id_to_edit: string | null;
}

export interface ChatSendInput {
  conversationId: string | null;
}

export interface ChatSendContext {
  conversationId: string | null;
  /** Oldest first. Messages sent here have temporary ids (`temp-user-N`, `temp-assistant-N`) until the control record. */
  messages: ChatMessage[];
  /** The pending assistant message's text while thinking/streaming ('' otherwise); see "The live streaming text". */
  streamingText: string;
  /** The id of the pending assistant message while thinking/streaming, else null. */
  streamingMessageId: string | null;
  /** Spec: 'A Network Error sets the network error flag'. Cleared by a successful refresh or by opening a conversation. */
  networkError: boolean;
  /** What the last network failure said (`stream.failed` detail, e.g. the server's 409 text), for a toast; null when none. */
  failureDetail: string | null;
  /** 'Failed to fetch messages' when loading the conversation failed. */
  loadError: string | null;
  /** The open conversation's title as loaded (null for a new chat): the header shows it. */
  title: string | null;
  /** What the last send (or edit) asked for: the sendMessage actor's input. */
  lastRequest: SendMessageInput | null;
  /** Token usage of the last completed reply (from the done record). */
  lastUsage: Usage | null;
  /** Polls in `following` that found the reply still streaming (0 outside `following`). */
  followAttempts: number;
}

interface MessageOptions {
  browsing: boolean;
  imageGeneration: boolean;
  reasoningEffort: ReasoningEffort;
}

export type ChatSendEvent =
  /** Select a conversation (id) or start a new chat (null). Re-opening the current id is ignored (unless its load failed). */
  | { type: 'conversation.open'; conversationId: string | null }
  | ({ type: 'message.submit'; text: string } & MessageOptions)
  | ({ type: 'message.edit'; messageId: string; text: string } & MessageOptions)
  /** Sent back by sendMessage: the control record (first data record of the stream). */
  | { type: 'stream.control'; conversationId: string; messageId: string; userMessageId: string }
  | { type: 'stream.chunk'; text: string }
  /** The server's `event: error` record. */
  | { type: 'stream.error'; errorType: StreamErrorType; message: string }
  /** The server's `event: done` record. */
  | { type: 'stream.done'; messageId: string; usage: Usage }
  /** The request could not be made ('request') or the stream broke ('stream'). */
  | { type: 'stream.failed'; phase: 'request' | 'stream'; detail?: string }
  | { type: 'messages.refresh' };

/** What the sendMessage actor sends back (`sendBack`), in protocol order. */
export type SendMessageStreamEvent = Extract<ChatSendEvent, { type: `stream.${string}` }>;

export type ChatSendEmitted =
  /** The control record created a conversation: navigate to /chat?id=… (then `conversation.open` with it is a no-op). */
  | { type: 'conversation.created'; conversationId: string }
  /**
   * A reply completed (`stream.done`): messageCount 2 = first exchange, start title polling. Not emitted after a
   * server-reported error (the server names a conversation only after a complete first reply). A followed reply
   * (state `following`) that completes emits it only with messageCount 2.
   */
  | { type: 'exchange.completed'; conversationId: string; messageCount: number }
  | { type: 'messages.refreshed' }
  | { type: 'messages.refreshFailed'; detail: string }
  | { type: 'messages.loadFailed' };

/** Spec section 4 texts (kept here so machines/ only imports types from contract/chat.ts, which pulls zod). */
export const SEND_REQUEST_FAILED = "Sorry, I couldn't process your request. Please try again.";
export const SEND_STREAM_FAILED = 'Sorry, I encountered an error while processing your request. Please try again.';
export const FETCH_MESSAGES_FAILED = 'Failed to fetch messages';

/** The text to show for a message: the live text for the pending assistant message, else its content. */
export function displayedContent(context: Pick<ChatSendContext, 'streamingMessageId' | 'streamingText'>, message: ChatMessage): string {
  return message.id === context.streamingMessageId ? context.streamingText : message.content;
}

/**
 * The assistant content after a server-reported stream error. The server streams its own error marker as text
 * before the `event: error` record (server/services/chat-stream.ts), so when the streamed text already holds the
 * message it is kept as is; otherwise the message is appended as an error marker ('max-tokens', else 'llm' — the
 * marker has no 'unknown' type). Either way 'An unknown error occurred' ends up shown in the assistant message.
 */
export function streamErrorContent(streamed: string, errorType: StreamErrorType, message: string): string {
  const text = message || UNKNOWN_STREAM_ERROR;
  if (streamed.includes(text)) return streamed;
  const marker = errorMarker(errorType === 'max-tokens' ? 'max-tokens' : 'llm', text);
  return streamed ? `${streamed}\n\n${marker}` : marker;
}

const isTemporaryId = (id: string) => id.startsWith('temp-');
/** A reply the server is still writing (loaded with status 'streaming'). */
const hasStreamingReply = (messages: ChatMessage[]) => messages.some((m) => m.sender === 'Assistant' && m.status === 'streaming');
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Ends the pending assistant message (the last one) with its final content and status. */
function finishAssistant(messages: ChatMessage[], patch: Partial<ChatMessage>): ChatMessage[] {
  const last = messages[messages.length - 1];
  if (!last || last.sender !== 'Assistant') return messages;
  return [...messages.slice(0, -1), { ...last, ...patch }];
}

/** Replaces messages from the first returned one on; all of them when that one is not in the list. */
function mergeRecent(current: ChatMessage[], recent: ChatMessage[]): ChatMessage[] {
  if (recent.length === 0) return current;
  const at = current.findIndex((m) => m.id === recent[0].id);
  return at === -1 ? recent : [...current.slice(0, at), ...recent];
}

type SendActorError = ErrorActorEvent<unknown, 'sendMessage'>;

/**
 * A send or an edit: the messages up to the question, then an empty assistant message to stream into, and the
 * request for the send actor.
 */
function startReply(
  context: ChatSendContext,
  messages: ChatMessage[],
  event: { text: string } & MessageOptions,
  editId: string | null,
): Partial<ChatSendContext> {
  const assistant: ChatMessage = {
    id: `temp-assistant-${messages.length}`,
    conversation_id: context.conversationId ?? '',
    content: '',
    sender: 'Assistant',
    status: 'streaming',
    created_at: new Date().toISOString(),
  };
  return {
    messages: [...messages, assistant],
    streamingText: '',
    streamingMessageId: assistant.id,
    lastRequest: {
      conversation_id: context.conversationId,
      message: event.text,
      browsing: event.browsing,
      image_generation: event.imageGeneration,
      reasoning_effort: event.reasoningEffort,
      message_id_to_edit: editId,
    },
  };
}

/** The context of a conversation just opened (or a new chat): nothing loaded, sent or failed yet. */
function freshContext(conversationId: string | null): ChatSendContext {
  return {
    conversationId,
    messages: [],
    streamingText: '',
    streamingMessageId: null,
    networkError: false,
    failureDetail: null,
    loadError: null,
    title: null,
    lastRequest: null,
    lastUsage: null,
    followAttempts: 0,
  };
}

export const chatSendMachine = setup({
  types: {
    context: {} as ChatSendContext,
    events: {} as ChatSendEvent | SendActorError,
    input: {} as ChatSendInput,
    emitted: {} as ChatSendEmitted,
    tags: {} as 'busy' | 'thinking' | 'streaming' | 'loading' | 'error' | 'refreshing' | 'following',
  },
  delays: {
    FOLLOW_INTERVAL: FOLLOW_INTERVAL_MS,
  },
  actors: {
    loadMessages: notProvided<ConversationMessages, { conversationId: string }>('loadMessages'),
    loadRecent: notProvided<ConversationMessages, { conversationId: string }>('loadRecent'),
    // A callback actor (src/: fetch-event-source, aborted in its cleanup); the default fails like every unprovided slot.
    sendMessage: fromCallback<EventObject, SendMessageInput>(() => {
      throw new Error('actor sendMessage is not provided');
    }),
  },
  guards: {
    hasConversation: ({ context }) => context.conversationId !== null,
    /** New chat always resets; another id opens it; the current id only when its load failed (a retry). */
    opensSomethingElse: ({ context, event }) => {
      assertEvent(event, 'conversation.open');
      return event.conversationId === null || event.conversationId !== context.conversationId || context.loadError !== null;
    },
    hasText: ({ event }) => {
      assertEvent(event, ['message.submit', 'message.edit']);
      return event.text.trim().length > 0;
    },
    /** An existing, saved (not temporary) user message, and non-blank text. */
    isEditableUserMessage: ({ context, event }) => {
      assertEvent(event, 'message.edit');
      const message = context.messages.find((m) => m.id === event.messageId);
      return Boolean(message && message.sender === 'user' && !isTemporaryId(message.id) && event.text.trim());
    },
    hasNetworkError: ({ context }) => context.networkError,
    /** The (loaded or merged) messages hold a reply the server is still writing. */
    hasStreamingReply: (_, params: { messages: ChatMessage[] }) => hasStreamingReply(params.messages),
    hasNoStreamingReply: (_, params: { messages: ChatMessage[] }) => !hasStreamingReply(params.messages),
    /** After this poll, the follow attempts are used up. */
    followAttemptsUsedUp: ({ context }) => context.followAttempts + 1 >= MAX_FOLLOW_ATTEMPTS,
  },
  actions: {
    openConversation: assign(({ event }) => {
      assertEvent(event, 'conversation.open');
      const { lastUsage: _kept, ...fresh } = freshContext(event.conversationId);
      return fresh;
    }),
    abortSend: stopChild('sendMessage'),
    startSend: spawnChild('sendMessage', {
      id: 'sendMessage',
      input: ({ context }) => context.lastRequest as SendMessageInput,
    }),
    appendExchange: assign(({ context, event }) => {
      assertEvent(event, 'message.submit');
      const n = context.messages.length;
      const user: ChatMessage = {
        id: `temp-user-${n}`,
        conversation_id: context.conversationId ?? '',
        content: event.text,
        sender: 'user',
        status: 'complete',
        created_at: new Date().toISOString(),
      };
      return startReply(context, [...context.messages, user], event, null);
    }),
    applyEdit: assign(({ context, event }) => {
      assertEvent(event, 'message.edit');
      const at = context.messages.findIndex((m) => m.id === event.messageId);
      const edited: ChatMessage = { ...context.messages[at]!, content: event.text };
      return startReply(context, [...context.messages.slice(0, at), edited], event, event.messageId);
    }),
    applyControl: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'stream.control');
      const isNew = context.conversationId !== event.conversationId;
      const n = context.messages.length;
      const messages = context.messages.map((m, i) => {
        const conversation_id = m.conversation_id || event.conversationId;
        if (i === n - 1 && m.sender === 'Assistant') return { ...m, id: event.messageId, conversation_id };
        if (i === n - 2 && m.sender === 'user') return { ...m, id: event.userMessageId, conversation_id };
        return m.conversation_id ? m : { ...m, conversation_id };
      });
      enqueue.assign({ conversationId: event.conversationId, messages, streamingMessageId: event.messageId });
      if (isNew) enqueue.emit({ type: 'conversation.created', conversationId: event.conversationId });
    }),
    appendChunk: assign(({ context, event }) => {
      assertEvent(event, 'stream.chunk');
      return { streamingText: context.streamingText + event.text };
    }),
    completeReply: assign(({ context, event }) => {
      assertEvent(event, 'stream.done');
      return {
        messages: finishAssistant(context.messages, { id: event.messageId, content: context.streamingText, status: 'complete' }),
        streamingText: '',
        streamingMessageId: null,
        lastUsage: event.usage,
      };
    }),
    failReplyWithServerError: assign(({ context, event }) => {
      assertEvent(event, 'stream.error');
      return {
        messages: finishAssistant(context.messages, {
          content: streamErrorContent(context.streamingText, event.errorType, event.message),
          status: 'error',
        }),
        streamingText: '',
        streamingMessageId: null,
      };
    }),
    failReply: assign(({ context, event }, params: { phase: 'request' | 'stream' }) => {
      assertEvent(event, ['stream.failed', 'xstate.error.actor.sendMessage']);
      const phase = event.type === 'stream.failed' ? event.phase : params.phase;
      return {
        messages: finishAssistant(context.messages, { content: phase === 'request' ? SEND_REQUEST_FAILED : SEND_STREAM_FAILED, status: 'error' }),
        streamingText: '',
        streamingMessageId: null,
        networkError: true,
        failureDetail: event.type === 'stream.failed' ? (event.detail ?? null) : errorText(event.error),
      };
    }),
    emitExchangeCompleted: enqueueActions(({ context, enqueue }) => {
      if (context.conversationId === null) return;
      enqueue.emit({ type: 'exchange.completed', conversationId: context.conversationId, messageCount: context.messages.length });
    }),
    /** A followed reply completed: only a first exchange (2 messages) is announced, for title polling. */
    emitFirstExchangeCompleted: enqueueActions(({ context, enqueue }) => {
      if (context.conversationId === null || context.messages.length !== 2) return;
      enqueue.emit({ type: 'exchange.completed', conversationId: context.conversationId, messageCount: 2 });
    }),
    mergeRecentMessages: assign(({ context }, params: { recent: ChatMessage[] }) => ({ messages: mergeRecent(context.messages, params.recent) })),
    countFollowAttempt: assign({ followAttempts: ({ context }) => context.followAttempts + 1 }),
    /** A failed poll: only the flag (and the detail); the followed message is left as it was. */
    markFollowFailed: assign((_, params: { error: unknown }) => ({ networkError: true, failureDetail: errorText(params.error) })),
  },
}).createMachine({
  id: 'chatSend',
  context: ({ input }) => freshContext(input.conversationId),
  initial: 'opening',
  on: {
    'conversation.open': {
      guard: 'opensSomethingElse',
      target: '.opening',
      actions: ['abortSend', 'openConversation'],
    },
  },
  states: {
    /** Transient: never observed. */
    opening: {
      always: [{ guard: 'hasConversation', target: 'loading' }, { target: 'idle' }],
    },
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadMessages',
        src: 'loadMessages',
        input: ({ context }) => ({ conversationId: context.conversationId as string }),
        onDone: [
          {
            guard: { type: 'hasStreamingReply', params: ({ event }) => ({ messages: event.output.messages }) },
            target: 'following',
            actions: assign(({ event }) => ({ messages: event.output.messages, title: event.output.conversation.title, loadError: null })),
          },
          {
            target: 'idle',
            actions: assign(({ event }) => ({ messages: event.output.messages, title: event.output.conversation.title, loadError: null })),
          },
        ],
        onError: {
          target: 'idle',
          actions: [assign({ loadError: FETCH_MESSAGES_FAILED }), emit({ type: 'messages.loadFailed' as const })],
        },
      },
    },
    idle: {
      on: {
        'message.submit': { guard: 'hasText', target: 'thinking', actions: 'appendExchange' },
        'message.edit': { guard: and(['hasText', 'isEditableUserMessage']), target: 'thinking', actions: 'applyEdit' },
        'messages.refresh': { guard: and(['hasNetworkError', 'hasConversation']), target: 'refreshing' },
      },
    },
    thinking: {
      tags: ['busy', 'thinking'],
      entry: 'startSend',
      on: {
        'stream.control': { actions: 'applyControl' },
        'stream.chunk': { target: 'streaming', actions: 'appendChunk' },
        'stream.done': { target: 'idle', actions: ['abortSend', 'completeReply', 'emitExchangeCompleted'] },
        'stream.error': { target: 'idle', actions: ['abortSend', 'failReplyWithServerError'] },
        'stream.failed': { target: 'networkError', actions: ['abortSend', { type: 'failReply', params: { phase: 'request' } }] },
        'xstate.error.actor.sendMessage': { target: 'networkError', actions: ['abortSend', { type: 'failReply', params: { phase: 'request' } }] },
      },
    },
    streaming: {
      tags: ['busy', 'streaming'],
      exit: 'abortSend',
      on: {
        'stream.control': { actions: 'applyControl' },
        'stream.chunk': { actions: 'appendChunk' },
        'stream.done': { target: 'idle', actions: ['completeReply', 'emitExchangeCompleted'] },
        'stream.error': { target: 'idle', actions: 'failReplyWithServerError' },
        'stream.failed': { target: 'networkError', actions: { type: 'failReply', params: { phase: 'stream' } } },
        'xstate.error.actor.sendMessage': { target: 'networkError', actions: { type: 'failReply', params: { phase: 'stream' } } },
      },
    },
    networkError: {
      tags: ['error'],
      on: {
        'message.submit': { guard: 'hasText', target: 'thinking', actions: 'appendExchange' },
        'message.edit': { guard: and(['hasText', 'isEditableUserMessage']), target: 'thinking', actions: 'applyEdit' },
        'messages.refresh': { guard: 'hasConversation', target: 'refreshing' },
      },
    },
    refreshing: {
      tags: ['refreshing'],
      invoke: {
        id: 'loadRecent',
        src: 'loadRecent',
        input: ({ context }) => ({ conversationId: context.conversationId as string }),
        onDone: [
          {
            guard: { type: 'hasStreamingReply', params: ({ context, event }) => ({ messages: mergeRecent(context.messages, event.output.messages) }) },
            target: 'following',
            actions: [
              assign(({ context, event }) => ({ messages: mergeRecent(context.messages, event.output.messages), networkError: false, failureDetail: null })),
              emit({ type: 'messages.refreshed' as const }),
            ],
          },
          {
            target: 'idle',
            actions: [
              assign(({ context, event }) => ({ messages: mergeRecent(context.messages, event.output.messages), networkError: false, failureDetail: null })),
              emit({ type: 'messages.refreshed' as const }),
            ],
          },
        ],
        onError: {
          target: 'networkError',
          actions: emit(({ event }) => ({ type: 'messages.refreshFailed' as const, detail: errorText(event.error) })),
        },
      },
    },
    /** A reply written elsewhere (see "Following a reply written elsewhere"): polls until it is no longer 'streaming'. */
    following: {
      tags: ['busy', 'following'],
      exit: assign({ followAttempts: 0 }),
      initial: 'waiting',
      states: {
        waiting: {
          after: { FOLLOW_INTERVAL: 'fetching' },
        },
        fetching: {
          invoke: {
            id: 'loadRecent',
            src: 'loadRecent',
            input: ({ context }) => ({ conversationId: context.conversationId as string }),
            onDone: [
              {
                guard: { type: 'hasNoStreamingReply', params: ({ context, event }) => ({ messages: mergeRecent(context.messages, event.output.messages) }) },
                target: '#chatSend.idle',
                actions: [{ type: 'mergeRecentMessages', params: ({ event }) => ({ recent: event.output.messages }) }, 'emitFirstExchangeCompleted'],
              },
              {
                // Still streaming after the last allowed poll: give up, leaving the message as loaded.
                guard: 'followAttemptsUsedUp',
                target: '#chatSend.idle',
                actions: { type: 'mergeRecentMessages', params: ({ event }) => ({ recent: event.output.messages }) },
              },
              {
                target: 'waiting',
                actions: [{ type: 'mergeRecentMessages', params: ({ event }) => ({ recent: event.output.messages }) }, 'countFollowAttempt'],
              },
            ],
            onError: {
              target: '#chatSend.networkError',
              actions: { type: 'markFollowFailed', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
  },
});

export type ChatSendMachine = typeof chatSendMachine;
