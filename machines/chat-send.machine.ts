import {
  and,
  assertEvent,
  assign,
  enqueueActions,
  fromCallback,
  setup,
  stopChild,
  type DoneActorEvent,
  type ErrorActorEvent,
  type EventObject,
} from 'xstate';
import type { ReplyStopResult } from '../contract/chat';
import { isNotFoundFailure, serverDetailOf } from './load-failure';
import { notProvided } from './not-provided';
import { notice, type Notice } from './notice';
import { followReplyMachine, hasStreamingReply, type FollowReplyInput, type FollowText, type LoadInput } from './follow-reply.machine';
import type { PollInput, PollOutput, PollProgress } from './poll.machine';
import { report, type ReportsTo } from './report';
import { errorMarker } from '../shared/markers';
import { FAIR_USE_EXCEEDED, FAIR_USE_EXCEEDED_CODE, UNKNOWN_STREAM_ERROR } from '../contract/chat-constants';
import type { ChatMessage, ConversationMessages, MessageDocument, ReasoningEffort } from '../contract/chat';
import type { StreamActivity, StreamErrorType, Usage } from '../contract/chat-stream';

/**
 * One conversation's messages and the send/stream cycle (spec chat-and-session.md section 4, "Sending a
 * message" and "Editing a user message"; the texts of sections 8 and 9).
 *
 * ## States (a contract with the views; read them through tags)
 * - `loading` (tag `loading`): invokes `loadMessages` (id `loadMessages`).
 * - `idle`: send and edit are accepted.
 * - `replying` (tag `busy`) with children `thinking` (tag `thinking`: nothing streamed yet) and `streaming`
 *   (tag `streaming`). `replying` invokes the send actor (id `sendMessage`), so whatever leaves `replying`
 *   (done, error, failure, `conversation.open`) stops it, which aborts the request. In `thinking`,
 *   `stream.status` (the server at work before the text, e.g. searching the web) sets `replyActivity` for the
 *   view to say instead of 'Thinking'; it is null again as soon as `thinking` is left.
 * - `networkError` (tag `error`): the request or the stream failed, or following a reply failed. The spec's
 *   "network error flag" is this state and nothing else; `failureDetail` says what the server said, for the view
 *   to show under 'Refresh message'. Send, edit and `messages.refresh` (with a conversation) are accepted.
 * - `refreshing` (tag `refreshing`): invokes `loadRecent` (id `loadRecent`).
 * - `following` (tags `busy`, `following`): invokes `follow` (id `follow`), see below.
 * - `notFound` (tag `notFound`): loading the conversation was answered 404 (deleted, another person's, or a wrong
 *   link). Final for this id: no toast, nothing is accepted but `conversation.open` of something else; the view
 *   says so once and offers a new chat. Any other load failure goes to `idle` with 'Failed to fetch messages'.
 * - `opening`: transient, never observed (picks `loading` or `idle` at start and after `conversation.open`).
 *
 * ## A page in hand
 * A tab opened on a conversation asks for its latest page while the app boots (src/app/conversation-prefetch.ts).
 * When that page has arrived before the machine starts, it comes as `opened` in the input: the machine starts in
 * `idle` with it, as `loadMessages` would have given it, and the chat's first render already shows the messages
 * instead of a loading pass. A page with a reply still being written is not used (it is loaded afresh, and
 * followed); `conversation.open` always loads.
 *
 * ## Earlier messages
 * `loadMessages` gives the conversation's latest page and `earlierCursor`, the server's cursor of the page before
 * it (null when the first message is loaded). `messages.loadEarlier` (the reader scrolled up to the top) is
 * accepted in every state while there is an earlier page and none is being loaded: it spawns `loadEarlier` (id
 * `loadEarlier`) beside whatever runs, so a reply being written or followed goes on, and `loadingEarlier` holds
 * the cursor it loads. Its page is put before the messages (the pending reply stays the last one); a failure
 * shows 'Failed to fetch messages' and leaves everything as it was, so scrolling up again retries. A page that no
 * longer fits (a refresh replaced the whole list and its cursor meanwhile) is dropped. Opening a conversation
 * stops it.
 *
 * ## Reported events
 * Outward events are `report`ed (machines/report.ts: emitted, and sent to the parent screen machine when there
 * is one); see {@link ChatSendReported}: `conversation.created`, `exchange.completed`, and `notice.show` for every
 * toast of this part of the chat (the view shows them; the texts are the spec's).
 *
 * ## The live streaming text
 * While replying, the pending assistant message is the last entry of `context.messages`, its id is
 * `context.streamingMessageId`, its status is 'streaming' and its `content` stays '' — the text received so far
 * is in `context.streamingText`, so a chunk changes one string and never copies the messages array (a
 * `useSelector` on `messages` does not re-render per chunk). When the reply ends (done, server error or network
 * failure) the text is written into the message's `content` once and `streamingMessageId` becomes null. A view
 * renders a message with {@link displayedContent}.
 *
 * ## The send actor
 * `sendMessage` (a callback actor, src/: fetch-event-source, aborted in its cleanup) must report every outcome
 * with `sendBack`: `stream.control`, then `stream.chunk`s, then `stream.done`, or `stream.error`
 * (server-reported), or `stream.failed` (network, or the server refused the request: its sentence is the
 * detail, e.g. 'Message not found' for an edit of a message that is gone). An exception thrown by the callback
 * itself (`xstate.error.actor.sendMessage`) is treated as `stream.failed` with phase 'request' in `thinking` and
 * 'stream' in `streaming`.
 *
 * A server-reported `stream.error` ends the reply at once (-> idle, message status 'error', content from
 * {@link streamErrorContent}); the `done` record the server sends right after it is not awaited (the server has
 * saved the reply before sending either).
 *
 * ## Following a reply written elsewhere
 * The server finishes and saves a reply even when its browser went away. When the loaded messages (or a
 * refresh's merged ones) hold an assistant message with status 'streaming' (a reload or another tab mid-reply),
 * the machine enters `following` instead of `idle`: no send actor runs, `streamingMessageId` stays null and the
 * partial reply is the message's own `content`. `following` invokes {@link followReplyMachine} (the poll
 * machine: every FOLLOW_INTERVAL_MS, up to MAX_FOLLOW_ATTEMPTS checks, the check is `loadRecent`, a failed check
 * ends it). Each `poll.progress` merges the recent messages. The poll's output decides the rest: `finished`
 * (no reply streaming any more) -> `idle`, reporting `exchange.completed` only when the conversation now has
 * exactly 2 messages (its first exchange: the screen starts title polling); `gaveUp` -> `idle` with the
 * message as last loaded; `failed` -> `networkError` with the messages untouched (Refresh recovers, and follows
 * again if the reply is still being written). Send, edit and refresh are not accepted while following.
 *
 * ## Stopping and regenerating
 * `reply.stop` is accepted while a reply with a server id is written: in `replying` once the control record
 * gave its id, and in `following`. It spawns `stopReply` (id `stopReply`, POST /chat/messages/{id}/stop) and
 * `stoppingMessageId` holds the reply's id until it answers; nothing else changes here: the server ends the
 * stream with `done` (`stopped` true, the text so far), or a followed reply shows up complete at the next check.
 * A failed stop shows 'Failed to stop the reply' and the reply goes on. Opening a conversation stops the child.
 * `message.regenerate` (in `idle` and `networkError`) asks again for the last reply: when the conversation ends
 * with a saved question and its saved reply, it is an edit of that question with its own text (the reply is
 * discarded and a new one streams into its place).
 */

/** The time between two checks while following a reply written elsewhere (the follow poll's interval). */
export const FOLLOW_INTERVAL_MS = 1000;
/** Checks before giving up on a followed reply (ten minutes at FOLLOW_INTERVAL_MS). */
export const MAX_FOLLOW_ATTEMPTS = 600;

/** Spec section 4 and 8 texts (kept here so machines/ only imports types from contract/chat.ts, which pulls zod). */
/** The title over a reply lost to the network (said in the same box as a reply the model failed to write). */
export const CONNECTION_FAILED_TITLE = 'The connection to the assistant failed';
/** The title over a question refused for the month's fair use (its sentence is FAIR_USE_EXCEEDED). */
export const FAIR_USE_REFUSED_TITLE = "This month's allowance is used up";
export const SEND_REQUEST_FAILED = "Sorry, I couldn't process your request. Please try again.";
export const SEND_STREAM_FAILED = 'Sorry, I encountered an error while processing your request. Please try again.';
export const FETCH_MESSAGES_FAILED = 'Failed to fetch messages';
export const MESSAGES_REFRESHED = 'Messages refreshed successfully';
export const FETCH_RECENT_FAILED = 'Failed to fetch recent messages';
export const NO_MESSAGES_FOUND = 'No messages found in the response';
/** The refresh failure toast: 'Failed to refresh messages.' followed by the detail (spec section 8). */
export const refreshFailedText = (detail: string) => `Failed to refresh messages. ${detail}`;
/** Beyond the spec (peers offer a Stop button): the toast when the server did not take a stop. */
export const STOP_FAILED = 'Failed to stop the reply';

/** The POST /api/v1/chat/messages body (contract SendMessageRequest, every field given; sender is always 'user'). */
export interface SendMessageInput {
  conversation_id: string | null;
  message: string;
  browsing: boolean;
  image_generation: boolean;
  reasoning_effort: ReasoningEffort;
  message_id_to_edit: string | null;
  /** Files attached to this message (the composer's ready documents); only a submit carries them. */
  document_ids?: string[];
}

/** The input of `loadMessages`, `loadRecent` and the follow's checks (follow-reply.machine.ts defines it). */
export type { LoadInput };

/** The input of `stopReply`: the reply being written. */
export interface StopReplyInput {
  messageId: string;
}

/** The input of `loadEarlier`: the page before `before` (an earlier_cursor). */
export interface LoadEarlierInput extends LoadInput {
  before: string;
}

export interface ChatSendInput extends ReportsTo {
  conversationId: string | null;
  /** The conversation's latest page, already loaded (see "A page in hand"); only with its conversationId. */
  opened?: ConversationMessages | null;
}

export interface ChatSendContext extends ReportsTo {
  conversationId: string | null;
  /** Oldest first. Messages sent here have temporary ids (`temp-user-N`, `temp-assistant-N`) until the control record. */
  messages: ChatMessage[];
  /** The server's cursor of the page before `messages` (see "Earlier messages"); null when the first message is loaded. */
  earlierCursor: string | null;
  /** The cursor of the earlier page being loaded; null when none is. */
  loadingEarlier: string | null;
  /** The pending assistant message's text while replying ('' otherwise); see "The live streaming text". */
  streamingText: string;
  /** The id of the pending assistant message while replying, else null. */
  streamingMessageId: string | null;
  /**
   * What the last failure that led to `networkError` said (the server's sentence for a refused send, e.g.
   * 'Message not found'), for the view to show under 'Refresh message'; null when none. Cleared by a new send, a
   * successful refresh and opening a conversation.
   */
  failureDetail: string | null;
  /** 'Failed to fetch messages' when loading the conversation failed. */
  loadError: string | null;
  /** The open conversation's title as loaded (null for a new chat): the header shows it. */
  title: string | null;
  /** What the last send (or edit) asked for: the sendMessage actor's input. */
  lastRequest: SendMessageInput | null;
  /** Token usage of the last completed reply (from the done record). */
  lastUsage: Usage | null;
  /** The reply a stop was asked for, until the server answers the stop (null when none). */
  stoppingMessageId: string | null;
  /** The input's page in hand until the start takes it (see "A page in hand"); null afterwards. */
  openedPage: ConversationMessages | null;
  /** What the server said it is doing before the reply's first words (`stream.status`), while `thinking`; else null. */
  replyActivity: StreamActivity | null;
}

interface MessageOptions {
  browsing: boolean;
  imageGeneration: boolean;
  reasoningEffort: ReasoningEffort;
}

/** What the sendMessage actor sends back (`sendBack`), in protocol order. */
export type SendMessageStreamEvent =
  /** The control record (first data record of the stream). */
  | { type: 'stream.control'; conversationId: string; messageId: string; userMessageId: string }
  /** The server's `event: status` record: at work before the text (a tool). */
  | { type: 'stream.status'; activity: StreamActivity }
  | { type: 'stream.chunk'; text: string }
  /** The server's `event: error` record. */
  | { type: 'stream.error'; errorType: StreamErrorType; message: string }
  /** The server's `event: done` record. */
  | { type: 'stream.done'; messageId: string; usage: Usage; stopped: boolean }
  /** The request could not be made or was refused ('request'), or the stream broke ('stream'). */
  | { type: 'stream.failed'; phase: 'request' | 'stream'; detail?: string; code?: string };

export type ChatSendEvent =
  /** Select a conversation (id) or start a new chat (null). Re-opening the current id is ignored (unless its load failed). */
  | { type: 'conversation.open'; conversationId: string | null }
  /** `documentIds`: the composer's ready attachments (the screen adds them). */
  | ({ type: 'message.submit'; text: string; documentIds?: string[]; documents?: MessageDocument[] } & MessageOptions)
  | ({ type: 'message.edit'; messageId: string; text: string } & MessageOptions)
  /** 'Refresh message': reload the recent messages after a network error. */
  | { type: 'messages.refresh' }
  /** Stop: the reply being written ends with the text so far. */
  | { type: 'reply.stop' }
  /** Regenerate: the last reply is asked for again. */
  | ({ type: 'message.regenerate' } & MessageOptions)
  /** The reader reached the top of the loaded messages: load the page before them. */
  | { type: 'messages.loadEarlier' }
  | SendMessageStreamEvent
  /** Sent by the `follow` child after each check: the recent messages. */
  | PollProgress<ConversationMessages>
  /** Sent by the `follow` child as the followed reply's stream grows: its whole text so far. */
  | FollowText;

/** The invoked actors' outcomes, named so that actions and guards can `assertEvent` them. */
type ActorOutcome =
  | DoneActorEvent<ConversationMessages, 'loadMessages'>
  | ErrorActorEvent<unknown, 'loadMessages'>
  | DoneActorEvent<ConversationMessages, 'loadRecent'>
  | ErrorActorEvent<unknown, 'loadRecent'>
  | DoneActorEvent<ConversationMessages, 'loadEarlier'>
  | ErrorActorEvent<unknown, 'loadEarlier'>
  | DoneActorEvent<PollOutput<ConversationMessages>, 'follow'>
  | ErrorActorEvent<unknown, 'follow'>
  | ErrorActorEvent<unknown, 'sendMessage'>
  | DoneActorEvent<ReplyStopResult, 'stopReply'>
  | ErrorActorEvent<unknown, 'stopReply'>;

/** The control record created a conversation: the screen navigates to /chat?id=… (then `conversation.open` with it is a no-op). */
export interface ConversationCreated {
  type: 'conversation.created';
  conversationId: string;
}

/**
 * A reply ended (`stream.done`, or a server-reported `stream.error`): messageCount 2 = first exchange, start title
 * polling (the server names a conversation whose first reply failed after its question). A followed reply that
 * completes reports it only with messageCount 2.
 */
export interface ExchangeCompleted {
  type: 'exchange.completed';
  conversationId: string;
  messageCount: number;
}

/** A message carrying attachments was taken (the composer's list lets go of them). */
export interface DocumentsSent {
  type: 'documents.sent';
  documentIds: string[];
}

/**
 * Everything chat-send reports (emitted and sent to its parent). The notices: 'Messages refreshed successfully'
 * (success); `Failed to refresh messages. ${detail}` with the server's detail, else 'Failed to fetch recent
 * messages', or 'No messages found in the response' for an empty answer (error); 'Failed to fetch messages'
 * when loading the conversation or its earlier messages failed (error).
 */
export type ChatSendReported = ConversationCreated | ExchangeCompleted | DocumentsSent | Notice;


/** The text to show for a message: the live text for the pending assistant message, else its content. */
export function displayedContent(context: Pick<ChatSendContext, 'streamingMessageId' | 'streamingText'>, message: ChatMessage): string {
  return message.id === context.streamingMessageId ? context.streamingText : message.content;
}

/**
 * The reply this page shows as being written (busy, the thinking dots while empty): only while it writes one
 * (`replying`) or follows one (`following`): the reply of its own send, else the newest reply the server is writing.
 * A reply left at status 'streaming' by a follow that failed or gave up is not: it is shown as last read.
 */
export function replyBeingWrittenId(snapshot: { hasTag(tag: 'busy'): boolean; context: Pick<ChatSendContext, 'streamingMessageId' | 'messages'> }): string | null {
  if (!snapshot.hasTag('busy')) return null;
  const { streamingMessageId, messages } = snapshot.context;
  return streamingMessageId ?? messages.findLast((m) => m.sender === 'Assistant' && m.status === 'streaming')?.id ?? null;
}

/**
 * The assistant content after a server-reported stream error. The server streams its own error marker as text
 * before the `event: error` record (server/services/chat/chat-stream.ts), so when the streamed text already holds the
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
/** The server's sentence when it gave one, else what the error itself says. */
const failureText = (error: unknown) => serverDetailOf(error) ?? (error instanceof Error ? error.message : String(error));

/** Ends the pending assistant message (the last one) with its final content and status. */
function finishAssistant(messages: ChatMessage[], patch: Partial<ChatMessage>): ChatMessage[] {
  const last = messages[messages.length - 1];
  if (!last || last.sender !== 'Assistant') return messages;
  return [...messages.slice(0, -1), { ...last, ...patch }];
}

/**
 * Replaces messages from the first returned one on; all of them when that one is not in the list, and then the
 * earlier messages start before the recent ones.
 */
function mergeRecent(context: ChatSendContext, recent: ConversationMessages): Pick<ChatSendContext, 'messages' | 'earlierCursor'> {
  const { messages: current, earlierCursor } = context;
  const first = recent.messages[0];
  if (!first) return { messages: current, earlierCursor };
  const at = current.findIndex((m) => m.id === first.id);
  return at === -1
    ? { messages: recent.messages, earlierCursor: recent.earlier_cursor }
    : { messages: [...current.slice(0, at), ...recent.messages], earlierCursor };
}

/**
 * Following a reply written elsewhere: machines/follow-reply.machine.ts reads the reply's stream and falls back to
 * the follow poll (a check of the recent messages every FOLLOW_INTERVAL_MS, done when no assistant message is
 * 'streaming' any more). The recent messages replace the list's tail from their first one on, and a reply the
 * server is writing is always the newest message (the server refuses a question while one is written), so "none
 * streaming in the answer" is "none streaming in the merged messages".
 */
export function followInput(conversationId: string): PollInput<LoadInput> {
  return { intervalMs: FOLLOW_INTERVAL_MS, maxAttempts: MAX_FOLLOW_ATTEMPTS, stopOnError: true, checkInput: { conversationId } };
}

/** The follow child's input: the reply written elsewhere (the newest message) and the fallback poll. */
export function followReplyInput(context: ChatSendContext): Omit<FollowReplyInput, 'parent'> {
  return { messageId: context.messages[context.messages.length - 1]!.id, poll: followInput(context.conversationId as string) };
}

/**
 * A send or an edit: the messages up to the question, then an empty assistant message to stream into, and the
 * request for the send actor.
 */
function startReply(
  context: ChatSendContext,
  messages: ChatMessage[],
  event: { text: string; documentIds?: string[] } & MessageOptions,
  editId: string | null,
): Partial<ChatSendContext> {
  const assistant: ChatMessage = {
    id: `temp-assistant-${messages.length}`,
    conversation_id: context.conversationId ?? '',
    content: '',
    sender: 'Assistant',
    status: 'streaming',
    created_at: new Date().toISOString(),
    stopped: false,
  };
  return {
    messages: [...messages, assistant],
    streamingText: '',
    streamingMessageId: assistant.id,
    failureDetail: null,
    lastRequest: {
      conversation_id: context.conversationId,
      message: event.text,
      browsing: event.browsing,
      image_generation: event.imageGeneration,
      reasoning_effort: event.reasoningEffort,
      message_id_to_edit: editId,
      // Only when there are any: a request without attachments stays as it always was.
      ...(event.documentIds?.length ? { document_ids: event.documentIds } : {}),
    },
  };
}

/** The context of a conversation just opened (or a new chat): nothing loaded, sent or failed yet. */
function freshContext(conversationId: string | null): ChatSendContext {
  return {
    conversationId,
    messages: [],
    earlierCursor: null,
    loadingEarlier: null,
    streamingText: '',
    streamingMessageId: null,
    failureDetail: null,
    loadError: null,
    title: null,
    lastRequest: null,
    lastUsage: null,
    stoppingMessageId: null,
    openedPage: null,
    replyActivity: null,
  };
}

/** What a loaded latest page sets: `loadMessages`'s answer, or the page in hand at start. */
const loadedFields = (page: ConversationMessages) => ({
  messages: page.messages,
  earlierCursor: page.earlier_cursor,
  title: page.conversation.title,
  loadError: null,
});

/** The reply that can be stopped: the one streamed here once it has its id, else one written elsewhere. */
function stoppableReplyId(context: ChatSendContext, following: boolean): string | null {
  if (!following) return context.streamingMessageId !== null && !isTemporaryId(context.streamingMessageId) ? context.streamingMessageId : null;
  const last = context.messages[context.messages.length - 1];
  return last && last.sender === 'Assistant' && last.status === 'streaming' ? last.id : null;
}

/** The question whose reply can be regenerated: the conversation ends with it and its reply, both saved. */
function regenerableQuestion(messages: ChatMessage[]): ChatMessage | null {
  const reply = messages[messages.length - 1];
  const question = messages[messages.length - 2];
  if (!reply || !question || reply.sender !== 'Assistant' || question.sender !== 'user') return null;
  if (reply.status === 'streaming' || isTemporaryId(reply.id) || isTemporaryId(question.id)) return null;
  return question;
}

const loadInput = ({ context }: { context: ChatSendContext }): LoadInput => ({ conversationId: context.conversationId as string });
/** Used where `hasEarlierPage` passed: there is a conversation and a cursor. */
const loadEarlierInput = ({ context }: { context: ChatSendContext }): LoadEarlierInput => ({
  conversationId: context.conversationId as string,
  before: context.earlierCursor as string,
});

export const chatSendMachine = setup({
  types: {
    context: {} as ChatSendContext,
    events: {} as ChatSendEvent | ActorOutcome,
    input: {} as ChatSendInput,
    emitted: {} as ChatSendReported,
    // Typed children: `snapshot.children.follow` is the poll's actor, `sendMessage` the send's.
    children: {} as {
      loadMessages: 'loadMessages';
      loadRecent: 'loadRecent';
      loadEarlier: 'loadEarlier';
      sendMessage: 'sendMessage';
      follow: 'follow';
      stopReply: 'stopReply';
    },
    tags: {} as 'busy' | 'thinking' | 'streaming' | 'loading' | 'error' | 'refreshing' | 'following' | 'notFound',
  },
  actors: {
    loadMessages: notProvided<ConversationMessages, LoadInput>('loadMessages'),
    loadRecent: notProvided<ConversationMessages, LoadInput>('loadRecent'),
    loadEarlier: notProvided<ConversationMessages, LoadEarlierInput>('loadEarlier'),
    stopReply: notProvided<ReplyStopResult, StopReplyInput>('stopReply'),
    // A callback actor (src/: fetch-event-source, aborted in its cleanup); the default fails like every unprovided slot.
    sendMessage: fromCallback<EventObject, SendMessageInput>(() => {
      throw new Error('actor sendMessage is not provided');
    }),
    // src/ provides it as followReplyMachine.provide({ actors: { followStream, check: <loadRecent>, poll } }).
    follow: followReplyMachine,
  },
  guards: {
    hasConversation: ({ context }) => context.conversationId !== null,
    /** The server refused the question because the organisation's fair use of the month is spent. */
    fairUseSpent: ({ event }) => {
      assertEvent(event, 'stream.failed');
      return event.code === FAIR_USE_EXCEEDED_CODE;
    },
    /** The server has no such conversation for this person (not a network or server failure). */
    loadNotFound: ({ event }) => {
      assertEvent(event, 'xstate.error.actor.loadMessages');
      return isNotFoundFailure(event.error);
    },
    /** A conversation to open and no page of it in hand. */
    needsLoading: ({ context }) => context.conversationId !== null && context.openedPage === null,
    /** New chat always resets; another id opens it; the current id only when its load failed (a retry). */
    opensSomethingElse: ({ context, event }) => {
      assertEvent(event, 'conversation.open');
      return event.conversationId === null || event.conversationId !== context.conversationId || context.loadError !== null;
    },
    hasText: ({ event }) => {
      assertEvent(event, ['message.submit', 'message.edit']);
      return event.text.trim().length > 0;
    },
    /** An existing, saved (not temporary) user message. */
    isEditableUserMessage: ({ context, event }) => {
      assertEvent(event, 'message.edit');
      const message = context.messages.find((m) => m.id === event.messageId);
      return Boolean(message && message.sender === 'user' && !isTemporaryId(message.id));
    },
    /** The control record names another conversation than the open one (a new chat got its id). */
    createsConversation: ({ context, event }) => {
      assertEvent(event, 'stream.control');
      return event.conversationId !== context.conversationId;
    },
    loadedStreamingReply: ({ event }) => {
      assertEvent(event, 'xstate.done.actor.loadMessages');
      return hasStreamingReply(event.output.messages);
    },
    refreshFoundNoMessages: ({ event }) => {
      assertEvent(event, 'xstate.done.actor.loadRecent');
      return event.output.messages.length === 0;
    },
    refreshFoundStreamingReply: ({ context, event }) => {
      assertEvent(event, 'xstate.done.actor.loadRecent');
      return hasStreamingReply(mergeRecent(context, event.output).messages);
    },
    /** A reply with a server id is being written and no stop of it is pending. */
    canStop: ({ context }, params: { following: boolean }) =>
      context.stoppingMessageId === null && stoppableReplyId(context, params.following) !== null,
    canRegenerate: ({ context }) => regenerableQuestion(context.messages) !== null,
    hasEarlierPage: ({ context }) => context.earlierCursor !== null && context.loadingEarlier === null,
    /** The loaded page is the one before the messages shown (a refresh may have replaced them meanwhile). */
    earlierPageFits: ({ context }) => context.loadingEarlier !== null && context.loadingEarlier === context.earlierCursor,
    followFailed: ({ event }) => {
      assertEvent(event, 'xstate.done.actor.follow');
      return event.output.status === 'failed';
    },
    followFinished: ({ event }) => {
      assertEvent(event, 'xstate.done.actor.follow');
      return event.output.status === 'finished';
    },
    /** The conversation holds its first exchange: one question, one answer (and nothing before them). */
    isFirstExchange: ({ context }) => context.conversationId !== null && context.messages.length === 2 && context.earlierCursor === null,
  },
  actions: {
    openConversation: assign(({ event }) => {
      assertEvent(event, 'conversation.open');
      const { lastUsage: _kept, ...fresh } = freshContext(event.conversationId);
      return fresh;
    }),
    applyLoadedConversation: assign(({ event }) => {
      assertEvent(event, 'xstate.done.actor.loadMessages');
      return loadedFields(event.output);
    }),
    /** The page in hand, when there is one (a new chat has none). */
    applyOpenedPage: assign(({ context }) => (context.openedPage ? { ...loadedFields(context.openedPage), openedPage: null } : {})),
    startLoadingEarlier: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ loadingEarlier: context.earlierCursor });
      enqueue.spawnChild('loadEarlier', { id: 'loadEarlier', input: loadEarlierInput({ context }) });
    }),
    /** Before the loaded messages, without any of them twice. */
    prependEarlier: assign(({ context, event }) => {
      assertEvent(event, 'xstate.done.actor.loadEarlier');
      const shown = new Set(context.messages.map((m) => m.id));
      return {
        messages: [...event.output.messages.filter((m) => !shown.has(m.id)), ...context.messages],
        earlierCursor: event.output.earlier_cursor,
        loadingEarlier: null,
      };
    }),
    endLoadingEarlier: assign({ loadingEarlier: null }),
    stopLoadingEarlier: stopChild('loadEarlier'),
    markLoadFailed: assign({ loadError: FETCH_MESSAGES_FAILED }),
    reportLoadFailed: report(() => notice('error', FETCH_MESSAGES_FAILED)),
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
        stopped: false,
        // The files it carries show under it at once (the server's pages say the same after a reload).
        ...(event.documents?.length ? { documents: event.documents } : {}),
      };
      return startReply(context, [...context.messages, user], event, null);
    }),
    /** Used where a submit was taken: the attachments it carried are on their way. */
    reportDocumentsSent: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'message.submit');
      const documentIds = event.documentIds ?? [];
      if (documentIds.length) enqueue(report(() => ({ type: 'documents.sent', documentIds }) satisfies DocumentsSent));
    }),
    /** Like an edit of the last question with its own text. */
    applyRegenerate: assign(({ context, event }) => {
      assertEvent(event, 'message.regenerate');
      const question = regenerableQuestion(context.messages)!;
      const at = context.messages.indexOf(question);
      return startReply(context, context.messages.slice(0, at + 1), { ...event, text: question.content }, question.id);
    }),
    startStopping: enqueueActions(({ context, enqueue }, params: { following: boolean }) => {
      const messageId = stoppableReplyId(context, params.following)!;
      enqueue.assign({ stoppingMessageId: messageId });
      enqueue.spawnChild('stopReply', { id: 'stopReply', input: { messageId } });
    }),
    endStopping: enqueueActions(({ enqueue }) => {
      enqueue.stopChild('stopReply');
      enqueue.assign({ stoppingMessageId: null });
    }),
    reportStopFailed: report(() => notice('error', STOP_FAILED)),
    applyEdit: assign(({ context, event }) => {
      assertEvent(event, 'message.edit');
      const at = context.messages.findIndex((m) => m.id === event.messageId);
      const edited: ChatMessage = { ...context.messages[at]!, content: event.text };
      return startReply(context, [...context.messages.slice(0, at), edited], event, event.messageId);
    }),
    /** The control record: the real ids of the question and the reply, and the conversation they belong to. */
    applyControl: assign(({ context, event }) => {
      assertEvent(event, 'stream.control');
      const n = context.messages.length;
      const messages = context.messages.map((m, i) => {
        const conversation_id = m.conversation_id || event.conversationId;
        if (i === n - 1 && m.sender === 'Assistant') return { ...m, id: event.messageId, conversation_id };
        if (i === n - 2 && m.sender === 'user') return { ...m, id: event.userMessageId, conversation_id };
        return m.conversation_id ? m : { ...m, conversation_id };
      });
      return { conversationId: event.conversationId, messages, streamingMessageId: event.messageId };
    }),
    reportConversationCreated: report(({ event }) => {
      assertEvent(event, 'stream.control');
      return { type: 'conversation.created', conversationId: event.conversationId } satisfies ConversationCreated;
    }),
    applyActivity: assign(({ event }) => {
      assertEvent(event, 'stream.status');
      return { replyActivity: event.activity };
    }),
    clearActivity: assign({ replyActivity: null }),
    appendChunk: assign(({ context, event }) => {
      assertEvent(event, 'stream.chunk');
      return { streamingText: context.streamingText + event.text };
    }),
    completeReply: assign(({ context, event }) => {
      assertEvent(event, 'stream.done');
      return {
        messages: finishAssistant(context.messages, {
          id: event.messageId,
          content: context.streamingText,
          status: 'complete',
          stopped: event.stopped,
        }),
        streamingText: '',
        streamingMessageId: null,
        lastUsage: event.usage,
      };
    }),
    /** Used where the conversation is known (the guard `hasConversation` or `isFirstExchange` ran). */
    reportExchangeCompleted: report(({ context }: { context: ChatSendContext }) => ({
      type: 'exchange.completed',
      conversationId: context.conversationId as string,
      messageCount: context.messages.length,
    }) satisfies ExchangeCompleted),
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
    /**
     * The question refused for the month's fair use: not a failure to retry (Refresh would change nothing), so the
     * reply says why and the chat is idle again; the question stays on screen (the server kept nothing of it).
     */
    refuseForFairUse: assign(({ context }) => ({
      messages: finishAssistant(context.messages, { content: FAIR_USE_EXCEEDED, status: 'error' }),
      streamingText: '',
      streamingMessageId: null,
      failureDetail: null,
    })),
    /** A network failure of our send: the spec's sentence for the phase replaces the reply. */
    failReply: assign(({ context, event }, params: { phase: 'request' | 'stream' }) => {
      assertEvent(event, ['stream.failed', 'xstate.error.actor.sendMessage']);
      return {
        messages: finishAssistant(context.messages, { content: params.phase === 'request' ? SEND_REQUEST_FAILED : SEND_STREAM_FAILED, status: 'error' }),
        streamingText: '',
        streamingMessageId: null,
        failureDetail: event.type === 'stream.failed' ? (event.detail ?? null) : failureText(event.error),
      };
    }),
    applyRefreshedMessages: assign(({ context, event }) => {
      assertEvent(event, 'xstate.done.actor.loadRecent');
      return { ...mergeRecent(context, event.output), failureDetail: null };
    }),
    reportRefreshed: report(() => notice('success', MESSAGES_REFRESHED)),
    reportRefreshFailed: report(({ event }) => {
      assertEvent(event, 'xstate.error.actor.loadRecent');
      return notice('error', refreshFailedText(serverDetailOf(event.error) ?? FETCH_RECENT_FAILED));
    }),
    reportNoMessagesFound: report(() => notice('error', refreshFailedText(NO_MESSAGES_FOUND))),
    applyFollowedMessages: assign(({ context, event }) => {
      assertEvent(event, 'poll.progress');
      return mergeRecent(context, event.value);
    }),
    /** The followed reply's text so far, from its stream; a message it does not name is left alone. */
    applyFollowedText: assign(({ context, event }) => {
      assertEvent(event, 'follow.text');
      return { messages: context.messages.map((m) => (m.id === event.messageId ? { ...m, content: event.text } : m)) };
    }),
    /** Following failed: only the detail; the followed message is left as it was. */
    markFollowFailed: assign(({ event }) => {
      assertEvent(event, ['xstate.done.actor.follow', 'xstate.error.actor.follow']);
      return { failureDetail: failureText(event.type === 'xstate.done.actor.follow' ? event.output.error : event.error) };
    }),
  },
}).createMachine({
  id: 'chatSend',
  context: ({ input }) => ({
    ...freshContext(input.conversationId),
    // Only a settled page: a reply still being written is loaded afresh, then followed.
    openedPage: input.conversationId !== null && input.opened && !hasStreamingReply(input.opened.messages) ? input.opened : null,
    parent: input.parent,
  }),
  initial: 'opening',
  on: {
    'conversation.open': {
      guard: 'opensSomethingElse',
      target: '.opening',
      actions: ['stopLoadingEarlier', 'endStopping', 'openConversation'],
    },
    'messages.loadEarlier': { guard: 'hasEarlierPage', actions: 'startLoadingEarlier' },
    // Stopped here as well: a spawned child is not stopped by leaving a state (and one load at a time has one id).
    'xstate.done.actor.loadEarlier': [
      { guard: 'earlierPageFits', actions: ['stopLoadingEarlier', 'prependEarlier'] },
      { actions: ['stopLoadingEarlier', 'endLoadingEarlier'] },
    ],
    'xstate.error.actor.loadEarlier': { actions: ['stopLoadingEarlier', 'endLoadingEarlier', 'reportLoadFailed'] },
    // Spawned too (it outlives the reply it stops): its answer is awaited wherever the reply's end led.
    'xstate.done.actor.stopReply': { actions: 'endStopping' },
    'xstate.error.actor.stopReply': { actions: ['endStopping', 'reportStopFailed'] },
  },
  states: {
    /** Transient: never observed. */
    opening: {
      description: 'A conversation opens: whether its messages must be loaded or are already in hand is decided at once (never seen).',
      always: [{ guard: 'needsLoading', target: 'loading' }, { target: 'idle', actions: 'applyOpenedPage' }],
    },
    loading: {
      description: 'The messages of the conversation are being loaded.',
      tags: ['loading'],
      invoke: {
        id: 'loadMessages',
        src: 'loadMessages',
        input: loadInput,
        onDone: [
          { guard: 'loadedStreamingReply', target: 'following', actions: 'applyLoadedConversation' },
          { target: 'idle', actions: 'applyLoadedConversation' },
        ],
        onError: [
          { guard: 'loadNotFound', target: 'notFound' },
          { target: 'idle', actions: ['markLoadFailed', 'reportLoadFailed'] },
        ],
      },
    },
    /** Loading was answered 404: said once by the view, no toast; only opening something else leaves it. */
    notFound: {
      description: 'The conversation is gone or not theirs: the chat says so once and offers a new chat.',
      tags: ['notFound'],
    },
    idle: {
      description: 'The messages are shown; the person can send, edit or regenerate.',
      on: {
        'message.submit': { guard: 'hasText', target: 'replying', actions: ['appendExchange', 'reportDocumentsSent'] },
        'message.edit': { guard: and(['hasText', 'isEditableUserMessage']), target: 'replying', actions: 'applyEdit' },
        'message.regenerate': { guard: 'canRegenerate', target: 'replying', actions: 'applyRegenerate' },
      },
    },
    replying: {
      description: 'A question was sent and its reply is on its way; another send waits.',
      tags: ['busy'],
      invoke: {
        id: 'sendMessage',
        src: 'sendMessage',
        input: ({ context }) => context.lastRequest as SendMessageInput,
      },
      initial: 'thinking',
      on: {
        'stream.control': [
          { guard: 'createsConversation', actions: ['applyControl', 'reportConversationCreated'] },
          { actions: 'applyControl' },
        ],
        'stream.done': [
          { guard: 'hasConversation', target: 'idle', actions: ['completeReply', 'reportExchangeCompleted'] },
          { target: 'idle', actions: 'completeReply' },
        ],
        // A failed first exchange is still named (from the question, server side): the title is polled for all the same.
        'stream.error': [
          { guard: 'hasConversation', target: 'idle', actions: ['failReplyWithServerError', 'reportExchangeCompleted'] },
          { target: 'idle', actions: 'failReplyWithServerError' },
        ],
        'stream.failed': [
          { guard: 'fairUseSpent', target: 'idle', actions: 'refuseForFairUse' },
          { target: 'networkError', actions: { type: 'failReply', params: ({ event }) => ({ phase: event.phase }) } },
        ],
        'reply.stop': {
          guard: { type: 'canStop', params: { following: false } },
          actions: { type: 'startStopping', params: { following: false } },
        },
      },
      states: {
        thinking: {
          description: 'Nothing of the reply has come yet: Thinking shows (or what the server is doing, such as searching the web).',
          tags: ['thinking'],
          exit: 'clearActivity',
          on: {
            'stream.status': { actions: 'applyActivity' },
            'stream.chunk': { target: 'streaming', actions: 'appendChunk' },
            'xstate.error.actor.sendMessage': { target: '#chatSend.networkError', actions: { type: 'failReply', params: { phase: 'request' } } },
          },
        },
        streaming: {
          description: 'The reply appears as it is written.',
          tags: ['streaming'],
          on: {
            'stream.chunk': { actions: 'appendChunk' },
            'xstate.error.actor.sendMessage': { target: '#chatSend.networkError', actions: { type: 'failReply', params: { phase: 'stream' } } },
          },
        },
      },
    },
    networkError: {
      description: 'The request or the stream failed: the reply says so, with Refresh message.',
      tags: ['error'],
      on: {
        'message.submit': { guard: 'hasText', target: 'replying', actions: ['appendExchange', 'reportDocumentsSent'] },
        'message.edit': { guard: and(['hasText', 'isEditableUserMessage']), target: 'replying', actions: 'applyEdit' },
        'messages.refresh': { guard: 'hasConversation', target: 'refreshing' },
        'message.regenerate': { guard: 'canRegenerate', target: 'replying', actions: 'applyRegenerate' },
      },
    },
    refreshing: {
      description: 'Refresh message: the latest messages are being loaded again.',
      tags: ['refreshing'],
      invoke: {
        id: 'loadRecent',
        src: 'loadRecent',
        input: loadInput,
        onDone: [
          // An empty answer cannot repair anything: a failure, like an error.
          { guard: 'refreshFoundNoMessages', target: 'networkError', actions: 'reportNoMessagesFound' },
          { guard: 'refreshFoundStreamingReply', target: 'following', actions: ['applyRefreshedMessages', 'reportRefreshed'] },
          { target: 'idle', actions: ['applyRefreshedMessages', 'reportRefreshed'] },
        ],
        onError: { target: 'networkError', actions: 'reportRefreshFailed' },
      },
    },
    /** A reply written elsewhere (see "Following a reply written elsewhere"). */
    following: {
      description: 'A reply written elsewhere (another tab, or before a reload) grows on screen until it is complete.',
      tags: ['busy', 'following'],
      invoke: {
        id: 'follow',
        src: 'follow',
        input: ({ context, self }) => ({ ...followReplyInput(context), parent: self }),
        onDone: [
          { guard: 'followFailed', target: 'networkError', actions: 'markFollowFailed' },
          { guard: and(['followFinished', 'isFirstExchange']), target: 'idle', actions: 'reportExchangeCompleted' },
          // Finished a later exchange, or gave up (the message stays as last loaded).
          { target: 'idle' },
        ],
        // The poll itself broke (not a failed check): as a failed check.
        onError: { target: 'networkError', actions: 'markFollowFailed' },
      },
      on: {
        'poll.progress': { actions: 'applyFollowedMessages' },
        'follow.text': { actions: 'applyFollowedText' },
        'reply.stop': {
          guard: { type: 'canStop', params: { following: true } },
          actions: { type: 'startStopping', params: { following: true } },
        },
      },
    },
  },
});

export type ChatSendMachine = typeof chatSendMachine;
