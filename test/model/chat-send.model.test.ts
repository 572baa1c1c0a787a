import { afterEach, describe, expectTypeOf, it, vi } from 'vitest';
import { expect } from './support/expect';
import { assign, createActor, fromCallback, fromPromise, setup, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import { chatSendMachine, displayedContent, FETCH_MESSAGES_FAILED, FETCH_RECENT_FAILED, FOLLOW_INTERVAL_MS, MAX_FOLLOW_ATTEMPTS, MESSAGES_REFRESHED, NO_MESSAGES_FOUND, refreshFailedText, SEND_REQUEST_FAILED, SEND_STREAM_FAILED, STOP_FAILED, streamErrorContent, type ChatSendEvent, type ChatSendInput, type ChatSendReported, type LoadEarlierInput, type LoadInput, type SendMessageInput, type StopReplyInput } from '../../machines/chat-send.machine';
import { followPollMachine, followReplyMachine } from '../../machines/follow-reply.machine';
import { isNotFoundFailure, loadFailure, serverDetailOf } from '../../machines/load-failure';
import { notice } from '../../machines/notice';
import type { PollOutput } from '../../machines/poll.machine';
import { type ChatMessage, type ConversationMessages, type ReplyStopResult, type SendMessageRequest } from '../../contract/chat';
import type { Usage } from '../../contract/chat-stream';
import { FAIR_USE_EXCEEDED, FAIR_USE_EXCEEDED_CODE, UNKNOWN_STREAM_ERROR } from '../../contract/chat-constants';
import { errorMarker } from '../../shared/markers';
import { ApiError } from '../../src/api/api-error';
import { StreamFailure } from '../../src/api/chat-stream';
import { defineChatSendActors, type ChatSendApi } from '../../src/features/chat/chat-send-actors';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof chatSendMachine>;
type Ev = EventFrom<typeof chatSendMachine>;
type StreamControlEvent = Extract<ChatSendEvent, { type: 'stream.control' }>;

const at = '2025-01-01T10:00:00.000Z';
const msg = (id: string, sender: ChatMessage['sender'], content: string, conversation_id = 'c1'): ChatMessage => ({
  id, conversation_id, content, sender, status: 'complete', created_at: at, stopped: false,
});
const conversation = { id: 'c1', title: 'Trip planning', created_at: at, updated_at: at };
const loaded: ConversationMessages = { conversation, messages: [msg('u1', 'user', 'Plan a trip'), msg('a1', 'Assistant', 'Sure.')], earlier_cursor: null };
/** Recent messages start at a1, which the list has: everything from a1 on is replaced. */
const recent: ConversationMessages = {
  conversation,
  messages: [msg('a1', 'Assistant', 'Sure.'), msg('u2', 'user', 'To Penang'), msg('a2', 'Assistant', 'Penang it is.')],
  earlier_cursor: 'before-a1',
};
/** Reloaded while the server was still writing the first reply of a new conversation. */
const midReply2: ConversationMessages = {
  conversation: { ...conversation, title: 'New Conversation' },
  messages: [msg('u1', 'user', 'Plan a trip'), { ...msg('a1', 'Assistant', 'Sure, let'), status: 'streaming' }],
  earlier_cursor: null,
};
/** Reloaded mid-reply of a later exchange. */
const midReply4: ConversationMessages = {
  conversation,
  messages: [...loaded.messages, msg('u2', 'user', 'To Penang'), { ...msg('a2', 'Assistant', 'Penang i'), status: 'streaming' }],
  earlier_cursor: null,
};
/** A refresh that finds the reply still being written. */
const recentMidReply: ConversationMessages = {
  conversation,
  messages: [msg('a1', 'Assistant', 'Sure.'), msg('u2', 'user', 'To Penang'), { ...msg('a2', 'Assistant', 'Penang i'), status: 'streaming' }],
  earlier_cursor: 'before-a1',
};
const emptyAnswer: ConversationMessages = { conversation, messages: [], earlier_cursor: null };
/** The last page of a longer conversation: earlier pages are loaded when the reader scrolls up. */
const latestPage: ConversationMessages = {
  conversation,
  messages: [msg('u5', 'user', 'And the hotel?'), msg('a5', 'Assistant', 'Near the beach.')],
  earlier_cursor: 'before-u5',
};
/** The pages before a cursor, as the server gives them. */
const earlierPages: Record<string, ConversationMessages> = {
  'before-u5': {
    conversation,
    messages: [msg('u3', 'user', 'How long?'), msg('a3', 'Assistant', 'Four days.'), msg('u4', 'user', 'By train?'), msg('a4', 'Assistant', 'Yes.')],
    earlier_cursor: 'before-u3',
  },
  'before-u3': { conversation, messages: [...loaded.messages, msg('u2', 'user', 'To Penang'), msg('a2', 'Assistant', 'Penang it is.')], earlier_cursor: null },
  'before-a1': { conversation, messages: [msg('u1', 'user', 'Plan a trip')], earlier_cursor: null },
};
const earlierPageFor = (cursor: string | null) => earlierPages[cursor ?? ''] ?? earlierPages['before-a1']!;
/** A fixture as the server answers it for the conversation `id` (the paths open c1 and c2). */
const answerFor = (id: string | null, answer: ConversationMessages): ConversationMessages =>
  id === null || id === answer.conversation.id
    ? answer
    : { ...answer, conversation: { ...answer.conversation, id }, messages: answer.messages.map((m) => ({ ...m, conversation_id: id })) };
/** Where an earlier load stands: none, loading the page before the messages, or one a refresh made stale. */
const earlierLoad = (s: Snap) =>
  s.context.loadingEarlier === null ? 'none' : s.context.loadingEarlier === s.context.earlierCursor ? 'fits' : 'stale';
/** A check while following: the last two messages again, the reply still written or finished. */
const followPoll = (s: Snap, status: 'streaming' | 'complete'): ConversationMessages => {
  const tail = s.context.messages.slice(-2);
  return {
    conversation,
    messages: tail.map((m, i) => (i === tail.length - 1 ? { ...m, status, content: status === 'streaming' ? 'Still writing' : 'All written.' } : m)),
    earlier_cursor: null,
  };
};
const followOutput = (s: Snap, status: PollOutput['status'], error: unknown = null): PollOutput<ConversationMessages> => ({
  status,
  value: followPoll(s, status === 'finished' ? 'complete' : 'streaming'),
  error,
  attempts: 3,
});
const isStreamingReply = (m: ChatMessage) => m.sender === 'Assistant' && m.status === 'streaming';
const usage: Usage = { prompt_tokens: 12, completion_tokens: 34 };
const options = { browsing: false, imageGeneration: false, reasoningEffort: 'low' as const };
/** The server answered the refresh with its own sentence / the connection dropped. */
const refusedRefresh = loadFailure('HTTP 409', 'This conversation is busy');
const droppedRefresh = loadFailure('Network Error', null);
const failedFollow = loadFailure('HTTP 500', 'The database is unavailable');
/** The server has no such conversation for this person (src/lib/load-failure.ts marks a 404 so). */
const missingConversation = loadFailure('HTTP 404', 'Conversation not found', true);

// --- fakes and what they saw (one live actor at a time) ---
let sent: SendMessageInput[] = [];
let aborts = 0;
let loads: LoadInput[] = [];
let recentLoads: LoadInput[] = [];
let earlierLoads: LoadEarlierInput[] = [];
let stops: StopReplyInput[] = [];
let reported: ChatSendReported[] = [];

/** A load that never settles (the paths send its outcome), recording its input. */
const never = <T,>(record: (input: LoadInput) => void) =>
  fromPromise<T, LoadInput>(({ input }) => {
    record(input);
    return new Promise(() => {});
  });

const testMachine = (machine = chatSendMachine) =>
  machine.provide({
    actors: {
      loadMessages: never<ConversationMessages>((input) => loads.push(input)),
      loadRecent: never<ConversationMessages>((input) => recentLoads.push(input)),
      loadEarlier: fromPromise<ConversationMessages, LoadEarlierInput>(({ input }) => {
        earlierLoads.push(input);
        return new Promise(() => {});
      }),
      stopReply: fromPromise<ReplyStopResult, StopReplyInput>(({ input }) => {
        stops.push(input);
        return new Promise(() => {});
      }),
      sendMessage: fromCallback<EventObject, SendMessageInput>(({ input }) => {
        sent.push(input);
        return () => {
          aborts += 1;
        };
      }),
      // The real follow machine over a stream and checks that never answer: the paths send its reports (the text
      // from the stream, each check's progress) and its end.
      follow: followReplyMachine.provide({
        actors: {
          followStream: fromCallback(() => {}),
          check: never<ConversationMessages>(() => {}),
          poll: followPollMachine.provide({ actors: { check: never<ConversationMessages>(() => {}) } }),
        },
      }),
    },
  });

let serverIds = 0;
const firstSavedUserMessage = (s: Snap) => s.context.messages.find((m) => m.sender === 'user' && !m.id.startsWith('temp-'));

const eventsFor = (s: Snap): Ev[] => {
  const current = s.context.conversationId;
  const open: Ev[] = [
    { type: 'conversation.open', conversationId: current },
    { type: 'conversation.open', conversationId: current === 'c2' ? 'c1' : 'c2' },
    { type: 'conversation.open', conversationId: null },
  ];
  const editId = firstSavedUserMessage(s)?.id ?? 'u1';
  // Server ids are unique: a path's events come from the generator's stored snapshot for a key, not from the
  // snapshot the replay is in, so ids derived from the context could repeat an earlier exchange's.
  serverIds += 1;
  const control: Ev = { type: 'stream.control', conversationId: current ?? 'new-1', messageId: `srv-a-${serverIds}`, userMessageId: `srv-u-${serverIds}` };
  // Every other reply ends because it was stopped (the server's `done` says so).
  const done: Ev = { type: 'stream.done', messageId: `srv-a-${serverIds}`, usage, stopped: serverIds % 2 === 0 };
  // A stop's answer comes wherever the reply's end led (the child outlives the state that spawned it).
  const stopping: Ev[] =
    s.context.stoppingMessageId === null
      ? []
      : [
          { type: 'xstate.done.actor.stopReply', output: { message_id: s.context.stoppingMessageId, stopped: true }, actorId: 'stopReply' } as Ev,
          { type: 'xstate.error.actor.stopReply', error: new Error('503'), actorId: 'stopReply' } as Ev,
        ];
  // Scrolling up is possible in every state; the earlier page's outcome comes while one loads.
  const earlier: Ev[] = [
    { type: 'messages.loadEarlier' },
    ...(s.context.loadingEarlier !== null
      ? [
          { type: 'xstate.done.actor.loadEarlier', output: answerFor(current, earlierPageFor(s.context.loadingEarlier)), actorId: 'loadEarlier' } as Ev,
          { type: 'xstate.error.actor.loadEarlier', error: new Error('503'), actorId: 'loadEarlier' } as Ev,
        ]
      : []),
  ];
  if (s.matches('following')) {
    // Send, edit and refresh are listed to show they do nothing here.
    const ignored: Ev[] = [
      { type: 'message.submit', text: 'Hello Tanya', ...options },
      { type: 'message.edit', messageId: editId, text: 'Plan a trip to Ipoh', ...options },
      { type: 'messages.refresh' },
      { type: 'message.regenerate', ...options },
    ];
    // The poll ends as its checks said: finished after an answer with no reply streaming, else gave up or failed.
    const ends: Ev[] = s.context.messages.some(isStreamingReply)
      ? [
          // The reply's stream: its whole text so far.
          { type: 'follow.text', messageId: s.context.messages.at(-1)!.id, text: `${s.context.messages.at(-1)!.content} and more` },
          { type: 'poll.progress', value: followPoll(s, 'streaming') },
          { type: 'poll.progress', value: followPoll(s, 'complete') },
          { type: 'xstate.done.actor.follow', output: followOutput(s, 'gaveUp'), actorId: 'follow' },
          { type: 'xstate.done.actor.follow', output: followOutput(s, 'failed', failedFollow), actorId: 'follow' },
          { type: 'xstate.error.actor.follow', error: new Error('poll broke'), actorId: 'follow' },
        ]
      : [{ type: 'xstate.done.actor.follow', output: followOutput(s, 'finished'), actorId: 'follow' }];
    return [...open, ...ignored, ...ends, ...earlier, { type: 'reply.stop' }, ...stopping];
  }
  if (s.matches({ replying: 'thinking' })) {
    return [
      ...open,
      ...earlier,
      ...stopping,
      { type: 'reply.stop' },
      control,
      { type: 'stream.status', activity: 'searching_web' },
      { type: 'stream.chunk', text: 'Hel' },
      done,
      { type: 'stream.error', errorType: 'llm', message: 'The model is unavailable' },
      { type: 'stream.error', errorType: 'unknown', message: UNKNOWN_STREAM_ERROR },
      { type: 'stream.failed', phase: 'request', detail: 'Network Error' },
      { type: 'stream.failed', phase: 'request', detail: FAIR_USE_EXCEEDED, code: FAIR_USE_EXCEEDED_CODE },
      { type: 'stream.failed', phase: 'stream', detail: 'socket closed' },
      { type: 'xstate.error.actor.sendMessage', error: new Error('boom'), actorId: 'sendMessage' },
    ];
  }
  if (s.matches({ replying: 'streaming' })) {
    return [
      ...open,
      ...earlier,
      ...stopping,
      { type: 'reply.stop' },
      control,
      // Listed to show it changes nothing once text has come.
      { type: 'stream.status', activity: 'searching_web' },
      { type: 'stream.chunk', text: 'lo' },
      done,
      { type: 'stream.error', errorType: 'max-tokens', message: 'The reply reached the token limit' },
      { type: 'stream.failed', phase: 'stream', detail: 'socket closed' },
      { type: 'xstate.error.actor.sendMessage', error: new Error('boom'), actorId: 'sendMessage' },
    ];
  }
  switch (s.value) {
    case 'loading':
      return [
        ...open,
        { type: 'messages.loadEarlier' },
        { type: 'xstate.done.actor.loadMessages', output: answerFor(current, loaded), actorId: 'loadMessages' },
        { type: 'xstate.done.actor.loadMessages', output: answerFor(current, latestPage), actorId: 'loadMessages' },
        { type: 'xstate.done.actor.loadMessages', output: answerFor(current, midReply2), actorId: 'loadMessages' },
        { type: 'xstate.done.actor.loadMessages', output: answerFor(current, midReply4), actorId: 'loadMessages' },
        { type: 'xstate.error.actor.loadMessages', error: new Error('500'), actorId: 'loadMessages' },
        { type: 'xstate.error.actor.loadMessages', error: missingConversation, actorId: 'loadMessages' },
      ];
    case 'notFound':
      // Listed to show that nothing but opening something else is taken.
      return [
        ...open,
        { type: 'message.submit', text: 'Hello Tanya', ...options },
        { type: 'messages.refresh' },
        { type: 'message.regenerate', ...options },
        ...earlier,
      ];
    case 'idle':
    case 'networkError':
      return [
        ...open,
        { type: 'message.submit', text: 'Hello Tanya', ...options },
        { type: 'message.submit', text: '   ', ...options },
        { type: 'message.edit', messageId: editId, text: 'Plan a trip to Ipoh', browsing: true, imageGeneration: false, reasoningEffort: 'medium' },
        { type: 'message.edit', messageId: editId, text: ' \n ', ...options },
        { type: 'message.edit', messageId: 'missing', text: 'x', ...options },
        { type: 'messages.refresh' },
        { type: 'message.regenerate', browsing: false, imageGeneration: true, reasoningEffort: 'medium' },
        { type: 'reply.stop' },
        ...earlier,
        ...stopping,
      ];
    case 'refreshing':
      return [
        ...open,
        { type: 'xstate.done.actor.loadRecent', output: answerFor(current, recent), actorId: 'loadRecent' },
        { type: 'xstate.done.actor.loadRecent', output: answerFor(current, recentMidReply), actorId: 'loadRecent' },
        { type: 'xstate.done.actor.loadRecent', output: answerFor(current, emptyAnswer), actorId: 'loadRecent' },
        // Alternate the two failures, so paths carry both (the generators keep one event per type and target).
        { type: 'xstate.error.actor.loadRecent', error: serverIds % 2 ? refusedRefresh : droppedRefresh, actorId: 'loadRecent' },
        ...earlier,
        ...stopping,
      ];
    default:
      return [...open, ...earlier, ...stopping];
  }
};

// --- invariants checked after every step ---
let prev: Snap | null = null;
let reportedSeen = 0;
let abortsSeen = 0;
let sentSeen = 0;
let recentLoadsSeen = 0;
let earlierLoadsSeen = 0;
let stopsSeen = 0;
/** This run has been in `following` (only then can a reply the server is writing stay in the list). */
let followed = false;
const replying = (s: Snap | null) => Boolean(s && s.matches('replying'));

/** Exactly what chat-send must report for the step `prev --e--> s`. */
function expectedReports(p: Snap | null, e: { type: string } | null, s: Snap): ChatSendReported[] {
  const c = s.context;
  const out: ChatSendReported[] = [];
  if (!p || !e) return out;
  if (e.type === 'stream.control' && replying(p)) {
    const ev = e as StreamControlEvent;
    if (p.context.conversationId !== ev.conversationId) out.push({ type: 'conversation.created', conversationId: ev.conversationId });
  }
  if ((e.type === 'stream.done' || e.type === 'stream.error') && replying(p) && c.conversationId !== null) {
    out.push({ type: 'exchange.completed', conversationId: c.conversationId, messageCount: c.messages.length });
  }
  // A conversation that is not there is said once by the view, never as a toast.
  if (e.type === 'xstate.error.actor.loadMessages' && !isNotFoundFailure((e as unknown as { error: unknown }).error)) {
    out.push(notice('error', FETCH_MESSAGES_FAILED));
  }
  if (e.type === 'xstate.error.actor.loadEarlier') out.push(notice('error', FETCH_MESSAGES_FAILED));
  if (e.type === 'xstate.error.actor.stopReply') out.push(notice('error', STOP_FAILED));
  if (e.type === 'xstate.done.actor.loadRecent' && p.matches('refreshing')) {
    const answer = (e as unknown as { output: ConversationMessages }).output;
    out.push(answer.messages.length === 0 ? notice('error', refreshFailedText(NO_MESSAGES_FOUND)) : notice('success', MESSAGES_REFRESHED));
  }
  if (e.type === 'xstate.error.actor.loadRecent' && p.matches('refreshing')) {
    const error = (e as unknown as { error: unknown }).error;
    out.push(notice('error', refreshFailedText(error === refusedRefresh ? 'This conversation is busy' : FETCH_RECENT_FAILED)));
  }
  // A followed reply that completed announces only a first exchange (title polling); giving up or failing says nothing.
  if (e.type === 'xstate.done.actor.follow' && p.matches('following')) {
    const output = (e as unknown as { output: PollOutput }).output;
    if (output.status === 'finished' && c.messages.length === 2 && c.earlierCursor === null) out.push({ type: 'exchange.completed', conversationId: c.conversationId!, messageCount: 2 });
  }
  return out;
}

function common(s: Snap, e: { type: string } | null) {
  const c = s.context;
  const p = prev;
  const fresh = reported.slice(reportedSeen);
  reportedSeen = reported.length;
  const newAborts = aborts - abortsSeen;
  abortsSeen = aborts;
  const newSends = sent.length - sentSeen;
  sentSeen = sent.length;
  const newRecentLoads = recentLoads.length - recentLoadsSeen;
  recentLoadsSeen = recentLoads.length;
  const newEarlierLoads = earlierLoads.length - earlierLoadsSeen;
  earlierLoadsSeen = earlierLoads.length;
  const newStops = stops.length - stopsSeen;
  stopsSeen = stops.length;
  if (s.matches('following')) followed = true;

  // Tags are exactly the documented ones.
  expect(s.hasTag('busy')).toBe(s.matches('replying') || s.matches('following'));
  expect(s.hasTag('thinking')).toBe(s.matches({ replying: 'thinking' }));
  expect(s.hasTag('streaming')).toBe(s.matches({ replying: 'streaming' }));
  expect(s.hasTag('loading')).toBe(s.matches('loading'));
  expect(s.hasTag('error')).toBe(s.matches('networkError'));
  expect(s.hasTag('refreshing')).toBe(s.matches('refreshing'));
  expect(s.hasTag('following')).toBe(s.matches('following'));
  expect(s.hasTag('notFound')).toBe(s.matches('notFound'));

  // Send is possible exactly in idle and networkError, and never with blank text; refresh only after a network
  // error, with a conversation.
  const canSend = s.matches('idle') || s.matches('networkError');
  expect(s.can({ type: 'message.submit', text: 'x', ...options })).toBe(canSend);
  expect(s.can({ type: 'message.submit', text: ' \t\n', ...options })).toBe(false);
  expect(s.can({ type: 'messages.refresh' })).toBe(c.conversationId !== null && s.matches('networkError'));
  // Opening the conversation already open is a no-op (the URL caught up with the control record).
  if (c.conversationId !== null && c.loadError === null) {
    expect(s.can({ type: 'conversation.open', conversationId: c.conversationId })).toBe(false);
  }
  // The failure detail belongs to a network error (kept while its refresh runs).
  if (c.failureDetail !== null) expect(s.matches('networkError') || s.matches('refreshing')).toBe(true);

  // Message ids are unique; only the pending reply is 'streaming', or a reply the server is writing, which is only
  // kept after following it (given up, or following failed).
  expect(new Set(c.messages.map((m) => m.id)).size).toBe(c.messages.length);
  const streamingOnes = c.messages.filter((m) => m.status === 'streaming');
  const serverStreaming = streamingOnes.filter((m) => m.id !== c.streamingMessageId);
  for (const m of serverStreaming) expect(isStreamingReply(m) && !m.id.startsWith('temp-')).toBe(true);
  if (!followed) expect(serverStreaming).toEqual([]);

  // What the server said it is doing is shown only while nothing has streamed yet: set by its status, gone with `thinking`.
  if (!s.matches({ replying: 'thinking' })) expect(c.replyActivity).toBeNull();
  if (e?.type === 'stream.status' && p) {
    if (p.matches({ replying: 'thinking' })) expect(c).toEqual({ ...p.context, replyActivity: (e as Extract<ChatSendEvent, { type: 'stream.status' }>).activity });
    else expect(c).toEqual(p.context);
  }

  // The send actor runs exactly in `replying`, one request per entry; leaving `replying` stops it (= aborts).
  if (replying(s)) {
    expect(s.children.sendMessage).toBeDefined();
    const last = c.messages.at(-1)!;
    expect(streamingOnes.at(-1)).toBe(last);
    expect(last).toMatchObject({ sender: 'Assistant', status: 'streaming', content: '', id: c.streamingMessageId });
    expect(c.messages.at(-2)?.sender).toBe('user');
    expect(sent.at(-1)).toEqual(c.lastRequest);
  } else {
    expect(s.children.sendMessage).toBeUndefined();
    expect(c.streamingMessageId).toBeNull();
    expect(c.streamingText).toBe('');
  }
  expect(newSends).toBe(replying(s) && !replying(p) ? 1 : 0);
  expect(newAborts).toBe(replying(p) && !replying(s) ? 1 : 0);
  if (e?.type === 'conversation.open' && replying(p) && !replying(s)) {
    // Selecting another conversation or a new chat cancels the in-flight send (spec section 4, step 6).
    expect(newAborts).toBe(1);
    expect(s.children.sendMessage).toBeUndefined();
  }
  // loadRecent runs exactly in refreshing, once per entry; the follow poll exactly in following.
  expect(Boolean(s.children.loadRecent)).toBe(s.matches('refreshing'));
  expect(newRecentLoads).toBe(s.matches('refreshing') && !p?.matches('refreshing') ? 1 : 0);
  expect(Boolean(s.children.follow)).toBe(s.matches('following'));

  // Earlier messages: asked for in any state while there is an earlier page and none loading; one load at a time,
  // running beside the rest (a reply goes on being written, see the replying invariants above).
  expect(s.can({ type: 'messages.loadEarlier' })).toBe(c.earlierCursor !== null && c.loadingEarlier === null);
  expect(Boolean(s.children.loadEarlier)).toBe(c.loadingEarlier !== null);
  const startedEarlier = e?.type === 'messages.loadEarlier' && p !== null && p.context.earlierCursor !== null && p.context.loadingEarlier === null;
  expect(newEarlierLoads).toBe(startedEarlier ? 1 : 0);
  if (startedEarlier) {
    expect(earlierLoads.at(-1)).toEqual({ conversationId: c.conversationId, before: p.context.earlierCursor });
    expect(c.loadingEarlier).toBe(p.context.earlierCursor);
    expect(c.messages).toBe(p.context.messages);
  }
  if (e?.type === 'xstate.done.actor.loadEarlier' && p) {
    const page = (e as unknown as { output: ConversationMessages }).output;
    expect(c.loadingEarlier).toBeNull();
    if (p.context.loadingEarlier === p.context.earlierCursor) {
      // Put before the messages shown, without repeating one; the rest (a reply being written included) unchanged.
      const added = page.messages.filter((m) => !p.context.messages.some((shown) => shown.id === m.id));
      expect(c.messages).toEqual([...added, ...p.context.messages]);
      expect(c.earlierCursor).toBe(page.earlier_cursor);
    } else {
      // A refresh replaced the list and its cursor meanwhile: the page no longer belongs before it.
      expect(c.messages).toBe(p.context.messages);
      expect(c.earlierCursor).toBe(p.context.earlierCursor);
    }
  }
  if (e?.type === 'xstate.error.actor.loadEarlier' && p) {
    expect(c).toEqual({ ...p.context, loadingEarlier: null });
  }

  // Stop: for a reply with a server id that is being written (ours once the control record came, or one followed),
  // one request at a time; its child runs exactly while `stoppingMessageId` is set, whatever the state.
  const lastMessage = c.messages.at(-1);
  const stoppable = replying(s)
    ? c.streamingMessageId !== null && !c.streamingMessageId.startsWith('temp-')
    : s.matches('following') && lastMessage !== undefined && isStreamingReply(lastMessage);
  expect(s.can({ type: 'reply.stop' })).toBe(stoppable && c.stoppingMessageId === null);
  expect(Boolean(s.children.stopReply)).toBe(c.stoppingMessageId !== null);
  const stopAsked = e?.type === 'reply.stop' && p !== null && p.can({ type: 'reply.stop' });
  expect(newStops).toBe(stopAsked ? 1 : 0);
  if (stopAsked) {
    expect(c.stoppingMessageId).toBe(replying(p) ? p.context.streamingMessageId : p.context.messages.at(-1)!.id);
    expect(stops.at(-1)).toEqual({ messageId: c.stoppingMessageId });
    // Nothing else changes until the server ends the reply.
    expect({ ...c, stoppingMessageId: null }).toEqual(p.context);
  }
  if ((e?.type === 'xstate.done.actor.stopReply' || e?.type === 'xstate.error.actor.stopReply') && p) {
    expect(c).toEqual({ ...p.context, stoppingMessageId: null });
  }
  // Regenerate: where a send is possible, when the conversation ends with a saved question and its saved reply.
  const question = c.messages.at(-2);
  const regenerable =
    lastMessage !== undefined &&
    question !== undefined &&
    lastMessage.sender === 'Assistant' &&
    question.sender === 'user' &&
    lastMessage.status !== 'streaming' &&
    !lastMessage.id.startsWith('temp-') &&
    !question.id.startsWith('temp-');
  expect(s.can({ type: 'message.regenerate', ...options })).toBe(canSend && regenerable);

  // Exactly the expected reported events for the step.
  expect(fresh).toEqual(expectedReports(p, e, s));

  // conversation.open resets everything.
  if (e?.type === 'conversation.open' && p && p.context.conversationId !== c.conversationId) {
    expect(c.messages).toEqual([]);
    expect(c.earlierCursor).toBeNull();
    expect(c.loadingEarlier).toBeNull();
    expect(c.failureDetail).toBeNull();
    expect(c.loadError).toBeNull();
    expect(c.title).toBeNull();
    expect(c.stoppingMessageId).toBeNull();
  }
  if (e?.type === 'stream.control') {
    const ev = e as StreamControlEvent;
    expect(c.conversationId).toBe(ev.conversationId);
    expect(c.messages.slice(-2).map((m) => m.id)).toEqual([ev.userMessageId, ev.messageId]);
    expect(c.streamingMessageId).toBe(ev.messageId);
    expect(c.messages.every((m) => m.conversation_id === c.conversationId)).toBe(true);
  }
  prev = s;
}

const check = (fn: (s: Snap, e: { type: string } | null, p: Snap | null) => void) => (s: Snap, e: { type: string } | null) => {
  const p = prev;
  common(s, e);
  fn(s, e, p);
};

runModelTest({
  name: 'chat-send',
  machine: chatSendMachine,
  testMachine: () => testMachine(),
  onActor: (actor) => {
    sent = [];
    aborts = 0;
    loads = [];
    recentLoads = [];
    reported = [];
    prev = null;
    reportedSeen = 0;
    abortsSeen = 0;
    sentSeen = 0;
    recentLoadsSeen = 0;
    earlierLoads = [];
    earlierLoadsSeen = 0;
    stops = [];
    stopsSeen = 0;
    followed = false;
    actor.on('*', (ev) => reported.push(ev as ChatSendReported));
  },
  inputs: [{ conversationId: 'c1' }, { conversationId: null }],
  events: eventsFor,
  key: (s) =>
    JSON.stringify({
      v: s.value,
      c: s.context.conversationId !== null,
      e: Boolean(firstSavedUserMessage(s)),
      l: s.context.loadError !== null,
      // A reply the server is writing is in the list; while following: a first exchange or a later one.
      s: s.context.messages.some(isStreamingReply) && !s.context.streamingMessageId,
      f: s.matches('following') ? s.context.messages.length === 2 && s.context.earlierCursor === null : null,
      x: s.context.earlierCursor !== null,
      y: earlierLoad(s),
      k: s.context.stoppingMessageId !== null,
      a: s.context.replyActivity !== null,
    }),
  // Simple paths over the full key explode; value + "has a conversation" gives a few hundred routes.
  simpleKey: (s) => JSON.stringify([s.value, s.context.conversationId !== null]),
  edgeKeys: true,
  checks: {
    loading: check((s) => {
      expect(s.context.conversationId).not.toBeNull();
      expect(s.context.messages).toEqual([]);
      expect(s.children.loadMessages).toBeDefined();
      expect(loads.at(-1)).toEqual({ conversationId: s.context.conversationId });
    }),
    notFound: check((s, e, p) => {
      // Only a 404 leads here, from loading, and it changes nothing but the state: no messages, no title, no toast;
      // once here, nothing but opening something else is taken.
      if (!p?.matches('notFound')) {
        expect(e?.type).toBe('xstate.error.actor.loadMessages');
        expect(isNotFoundFailure((e as unknown as { error: unknown }).error)).toBe(true);
        expect(p?.matches('loading')).toBe(true);
      }
      expect(s.context).toEqual(p!.context);
      expect(s.can({ type: 'message.submit', text: 'Hello Tanya', ...options })).toBe(false);
      expect(s.context.messages).toEqual([]);
      expect(s.context.loadError).toBeNull();
      expect(s.can({ type: 'conversation.open', conversationId: null })).toBe(true);
    }),
    idle: check((s, e, p) => {
      const c = s.context;
      if (e?.type === 'xstate.done.actor.loadMessages') {
        const output = (e as unknown as { output: ConversationMessages }).output;
        expect(c.messages).toEqual(output.messages);
        expect(c.earlierCursor).toBe(output.earlier_cursor);
        expect(c.title).toBe(output.conversation.title);
        expect(c.loadError).toBeNull();
      }
      if (e?.type === 'xstate.error.actor.loadMessages') {
        expect(c.loadError).toBe(FETCH_MESSAGES_FAILED);
        expect(c.messages).toEqual([]);
      }
      if (e?.type === 'stream.done') {
        const ev = e as Extract<ChatSendEvent, { type: 'stream.done' }>;
        expect(c.messages.at(-1)).toMatchObject({
          id: ev.messageId,
          sender: 'Assistant',
          status: 'complete',
          content: p!.context.streamingText,
          stopped: ev.stopped,
        });
        expect(c.lastUsage).toEqual(usage);
      }
      if (e?.type === 'stream.failed') {
        // Only a refusal for the month's fair use ends here: said in the reply, nothing to refresh.
        expect((e as Extract<ChatSendEvent, { type: 'stream.failed' }>).code).toBe(FAIR_USE_EXCEEDED_CODE);
        expect(c.messages.at(-1)).toMatchObject({ sender: 'Assistant', status: 'error', content: FAIR_USE_EXCEEDED });
        expect(c.messages.at(-2)!.sender).not.toBe('Assistant');
        expect(c.failureDetail).toBeNull();
        expect(c.streamingMessageId).toBeNull();
      }
      if (e?.type === 'stream.error') {
        const ev = e as Extract<ChatSendEvent, { type: 'stream.error' }>;
        const last = c.messages.at(-1)!;
        expect(last.status).toBe('error');
        expect(last.content).toBe(streamErrorContent(p!.context.streamingText, ev.errorType, ev.message));
        if (ev.message.includes(UNKNOWN_STREAM_ERROR)) expect(last.content).toContain(UNKNOWN_STREAM_ERROR);
        else expect(last.content).toContain(errorMarker(ev.errorType === 'max-tokens' ? 'max-tokens' : 'llm', ev.message));
      }
      if (e?.type === 'xstate.done.actor.loadRecent') {
        // Everything from a1 on replaced by the recent messages; nothing before it was touched.
        expect(c.failureDetail).toBeNull();
        const i = c.messages.findIndex((m) => m.id === 'a1');
        expect(c.messages.slice(i)).toEqual((e as unknown as { output: ConversationMessages }).output.messages);
        // Replacing the whole list (a1 was not in it) takes the answer's cursor; otherwise the earlier pages stay.
        const overlapped = p!.context.messages.some((m) => m.id === 'a1');
        expect(c.earlierCursor).toBe(overlapped ? p!.context.earlierCursor : recent.earlier_cursor);
        expect(c.messages.some(isStreamingReply)).toBe(false);
      }
      if (e?.type === 'xstate.done.actor.follow') {
        const output = (e as unknown as { output: PollOutput }).output;
        // The poll's answers were merged as they came: finished leaves no reply streaming; giving up leaves it as loaded.
        expect(c.messages).toBe(p!.context.messages);
        expect(c.messages.some(isStreamingReply)).toBe(output.status !== 'finished');
      }
    }),
    replying: check((s, e, p) => {
      const c = s.context;
      if (s.matches({ replying: 'thinking' })) expect(c.streamingText).toBe('');
      else expect(c.streamingText.length).toBeGreaterThan(0);
      if (e?.type === 'message.submit') {
        const ev = e as Extract<ChatSendEvent, { type: 'message.submit' }>;
        expect(c.messages.length).toBe(p!.context.messages.length + 2);
        expect(c.messages.at(-2)).toMatchObject({ sender: 'user', content: ev.text, status: 'complete' });
        expect(c.failureDetail).toBeNull();
        expect(sent.at(-1)).toEqual({
          conversation_id: p!.context.conversationId,
          message: ev.text,
          browsing: ev.browsing,
          image_generation: ev.imageGeneration,
          reasoning_effort: ev.reasoningEffort,
          message_id_to_edit: null,
        });
      }
      if (e?.type === 'message.edit') {
        const ev = e as Extract<ChatSendEvent, { type: 'message.edit' }>;
        const i = p!.context.messages.findIndex((m) => m.id === ev.messageId);
        // Everything after the edited message is gone; the edited one has the new text; one empty reply follows.
        expect(c.messages.slice(0, i)).toEqual(p!.context.messages.slice(0, i));
        expect(c.messages[i]).toMatchObject({ id: ev.messageId, content: ev.text, sender: 'user' });
        expect(c.messages.length).toBe(i + 2);
        expect(sent.at(-1)).toMatchObject({ message: ev.text, message_id_to_edit: ev.messageId, browsing: true, reasoning_effort: 'medium' });
      }
      if (e?.type === 'message.regenerate') {
        const ev = e as Extract<ChatSendEvent, { type: 'message.regenerate' }>;
        // The last question is asked again with its own text: its reply is replaced by an empty one.
        const asked = p!.context.messages.at(-2)!;
        expect(c.messages.slice(0, -1)).toEqual(p!.context.messages.slice(0, -1));
        expect(c.messages.at(-1)).toMatchObject({ sender: 'Assistant', status: 'streaming', content: '' });
        expect(sent.at(-1)).toEqual({
          conversation_id: p!.context.conversationId,
          message: asked.content,
          browsing: ev.browsing,
          image_generation: ev.imageGeneration,
          reasoning_effort: ev.reasoningEffort,
          message_id_to_edit: asked.id,
        });
      }
      if (e?.type === 'stream.chunk') {
        const text = (e as Extract<ChatSendEvent, { type: 'stream.chunk' }>).text;
        expect(c.streamingText).toBe(p!.context.streamingText + text);
        // A chunk does not copy the messages array.
        expect(c.messages).toBe(p!.context.messages);
      }
    }),
    networkError: check((s, e, p) => {
      const c = s.context;
      // A failed send of ours, or a reply the server is writing that could not be followed.
      const failed = c.messages.filter((m) => m.status === 'error' && m.sender === 'Assistant');
      expect(failed.length > 0 || c.messages.some(isStreamingReply)).toBe(true);
      if (failed.length > 0) expect([SEND_REQUEST_FAILED, SEND_STREAM_FAILED]).toContain(failed.at(-1)!.content);
      if (e?.type === 'stream.failed') {
        const ev = e as Extract<ChatSendEvent, { type: 'stream.failed' }>;
        expect(c.messages.at(-1)!.content).toBe(ev.phase === 'request' ? SEND_REQUEST_FAILED : SEND_STREAM_FAILED);
        expect(c.failureDetail).toBe(ev.detail ?? null);
      }
      if (e?.type === 'xstate.error.actor.sendMessage') {
        expect(c.messages.at(-1)!.content).toBe(p!.matches({ replying: 'thinking' }) ? SEND_REQUEST_FAILED : SEND_STREAM_FAILED);
        expect(c.failureDetail).toBe('boom');
      }
      if (e?.type === 'xstate.done.actor.follow' || e?.type === 'xstate.error.actor.follow') {
        // Only the detail: the followed reply keeps its loaded content and status.
        expect(c.messages).toBe(p!.context.messages);
        expect(c.messages.at(-1)!.status).toBe('streaming');
        expect(c.failureDetail).toBe(e.type === 'xstate.done.actor.follow' ? 'The database is unavailable' : 'poll broke');
      }
      if (e?.type === 'xstate.done.actor.loadRecent' || e?.type === 'xstate.error.actor.loadRecent') {
        // A failed refresh changes nothing but the notice.
        expect(c).toEqual(p!.context);
      }
    }),
    refreshing: check((s, e, p) => {
      // Entered only by Refresh after a network error; anything else here is ignored.
      expect(p!.matches(e?.type === 'messages.refresh' ? 'networkError' : 'refreshing')).toBe(true);
      expect(s.context.conversationId).not.toBeNull();
      expect(s.children.loadRecent).toBeDefined();
      expect(recentLoads.at(-1)).toEqual({ conversationId: s.context.conversationId });
    }),
    following: check((s, e, p) => {
      const c = s.context;
      expect(c.conversationId).not.toBeNull();
      expect(c.failureDetail).toBeNull();
      // The followed reply is the newest message; the fallback poll as the spec of following says: every second,
      // ten minutes at most, a failed check ends it.
      expect(s.children.follow!.getSnapshot().context).toMatchObject({
        messageId: c.messages.at(-1)!.id,
        poll: { intervalMs: FOLLOW_INTERVAL_MS, maxAttempts: MAX_FOLLOW_ATTEMPTS, stopOnError: true, checkInput: { conversationId: c.conversationId } },
      });

      // Busy: no send, edit or refresh.
      const editable = firstSavedUserMessage(s);
      if (editable) expect(s.can({ type: 'message.edit', messageId: editable.id, text: 'Again', ...options })).toBe(false);
      if (e?.type === 'poll.progress') {
        const answer = (e as Extract<ChatSendEvent, { type: 'poll.progress' }>).value.messages;
        expect(c.messages.slice(-answer.length)).toEqual(answer);
        expect(c.messages.slice(0, -answer.length)).toEqual(p!.context.messages.slice(0, -answer.length));
      } else if (e?.type === 'follow.text') {
        // The stream's text so far replaces the followed reply's content, and nothing else.
        const { messageId, text } = e as Extract<ChatSendEvent, { type: 'follow.text' }>;
        expect(c.messages.map((m) => (m.id === messageId ? { ...m, content: text } : m))).toEqual(c.messages);
        expect(c.messages.map((m) => (m.id === messageId ? { ...m, content: '' } : m))).toEqual(p!.context.messages.map((m) => (m.id === messageId ? { ...m, content: '' } : m)));
        expect(c.messages.find((m) => m.id === messageId)?.content).toBe(text);
      } else if (!p?.matches('following')) {
        // Entered with the reply the server is writing as the last assistant message.
        expect(c.messages.findLast((m) => m.sender === 'Assistant')?.status).toBe('streaming');
      } else if (!/^(messages\.loadEarlier|reply\.stop|xstate\.(done|error)\.actor\.(loadEarlier|stopReply))$/.test(e?.type ?? '')) {
        // Anything but progress (and the earlier messages and stopping, checked in common) is ignored while following.
        expect(c).toBe(p.context);
      }
      if (e?.type === 'xstate.done.actor.loadMessages') {
        const output = (e as unknown as { output: ConversationMessages }).output;
        expect(c.messages).toEqual(output.messages);
        expect(c.title).toBe(output.conversation.title);
        expect(c.loadError).toBeNull();
      }
      if (e?.type === 'xstate.done.actor.loadRecent') {
        const output = (e as unknown as { output: ConversationMessages }).output.messages;
        expect(c.messages.slice(-output.length)).toEqual(output);
      }
    }),
  },
});

// --- examples: exact reported events and texts ---

function start(input: ChatSendInput, machine = testMachine()) {
  sent = [];
  aborts = 0;
  const actor = createActor(machine, { input });
  const out: ChatSendReported[] = [];
  actor.on('*', (ev) => out.push(ev as ChatSendReported));
  actor.start();
  return { actor, out };
}

describe('chat-send (examples)', () => {
  it('keeps the contract texts and types', () => {
    expect(SEND_REQUEST_FAILED).toBe("Sorry, I couldn't process your request. Please try again.");
    expect(SEND_STREAM_FAILED).toBe('Sorry, I encountered an error while processing your request. Please try again.');
    expect(FETCH_MESSAGES_FAILED).toBe('Failed to fetch messages');
    expect(MESSAGES_REFRESHED).toBe('Messages refreshed successfully');
    expect(refreshFailedText(FETCH_RECENT_FAILED)).toBe('Failed to refresh messages. Failed to fetch recent messages');
    expect(refreshFailedText(NO_MESSAGES_FOUND)).toBe('Failed to refresh messages. No messages found in the response');
    expectTypeOf<SendMessageInput>().toExtend<SendMessageRequest>();
  });

  it('a first exchange in a new chat: created, then completed with 2 messages; the URL catching up is a no-op', () => {
    const { actor, out } = start({ conversationId: null });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'message.submit', text: 'Hello', ...options });
    expect(actor.getSnapshot().hasTag('thinking')).toBe(true);
    expect(sent).toEqual([{ conversation_id: null, message: 'Hello', browsing: false, image_generation: false, reasoning_effort: 'low', message_id_to_edit: null }]);
    actor.send({ type: 'stream.control', conversationId: 'c9', messageId: 'a9', userMessageId: 'u9' });
    expect(out).toEqual([{ type: 'conversation.created', conversationId: 'c9' }]);
    // The view navigates to /chat?id=c9 and opens it: nothing is reloaded or cancelled.
    actor.send({ type: 'conversation.open', conversationId: 'c9' });
    expect(actor.getSnapshot().value).toEqual({ replying: 'thinking' });
    expect(aborts).toBe(0);
    actor.send({ type: 'stream.chunk', text: 'Hi ' });
    actor.send({ type: 'stream.chunk', text: 'there' });
    const live = actor.getSnapshot();
    expect(live.value).toEqual({ replying: 'streaming' });
    expect(live.context.messages.at(-1)!.content).toBe('');
    expect(displayedContent(live.context, live.context.messages.at(-1)!)).toBe('Hi there');
    expect(displayedContent(live.context, live.context.messages[0])).toBe('Hello');
    actor.send({ type: 'stream.done', messageId: 'a9', usage, stopped: false });
    const done = actor.getSnapshot();
    expect(done.value).toBe('idle');
    expect(done.context.messages.map((m) => [m.id, m.sender, m.content, m.status, m.conversation_id])).toEqual([
      ['u9', 'user', 'Hello', 'complete', 'c9'],
      ['a9', 'Assistant', 'Hi there', 'complete', 'c9'],
    ]);
    expect(out.at(-1)).toEqual({ type: 'exchange.completed', conversationId: 'c9', messageCount: 2 });
    expect(aborts).toBe(1);
  });

  it('starts with a page in hand (the boot loaded it): idle with its messages, nothing loaded; opening again loads', () => {
    loads = [];
    const { actor } = start({ conversationId: 'c1', opened: latestPage });
    let s = actor.getSnapshot();
    expect(s.value).toBe('idle');
    expect(s.context).toMatchObject({ messages: latestPage.messages, earlierCursor: 'before-u5', title: 'Trip planning', loadError: null, openedPage: null });
    expect(loads).toEqual([]);
    expect(s.can({ type: 'messages.loadEarlier' })).toBe(true);
    actor.send({ type: 'message.submit', text: 'And dinner?', ...options });
    expect(sent.at(-1)).toMatchObject({ conversation_id: 'c1', message: 'And dinner?' });
    // Another conversation and back: each open loads, the page in hand is not used twice.
    actor.send({ type: 'conversation.open', conversationId: 'c2' });
    actor.send({ type: 'conversation.open', conversationId: 'c1' });
    s = actor.getSnapshot();
    expect(s.value).toBe('loading');
    expect(s.context.messages).toEqual([]);
    expect(loads).toEqual([{ conversationId: 'c2' }, { conversationId: 'c1' }]);
  });

  it('a page in hand with a reply still being written is loaded afresh (then followed); a new chat ignores a page', () => {
    loads = [];
    const { actor } = start({ conversationId: 'c1', opened: midReply4 });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.messages).toEqual([]);
    expect(loads).toEqual([{ conversationId: 'c1' }]);
    actor.send({ type: 'xstate.done.actor.loadMessages', output: midReply4, actorId: 'loadMessages' });
    expect(actor.getSnapshot().value).toBe('following');

    const fresh = start({ conversationId: null, opened: latestPage }).actor.getSnapshot();
    expect(fresh.value).toBe('idle');
    expect(fresh.context.messages).toEqual([]);
    expect(fresh.context.title).toBeNull();
  });

  it('a request failure and a stream failure show the two spec sentences; refresh repairs the list', () => {
    const { actor, out } = start({ conversationId: 'c1' });
    actor.send({ type: 'xstate.done.actor.loadMessages', output: loaded, actorId: 'loadMessages' });
    actor.send({ type: 'message.submit', text: 'To Penang', ...options });
    actor.send({ type: 'stream.failed', phase: 'request', detail: 'Too many messages' });
    let s = actor.getSnapshot();
    expect(s.value).toBe('networkError');
    expect(s.hasTag('error')).toBe(true);
    expect(s.context.failureDetail).toBe('Too many messages');
    expect(s.context.messages.at(-1)).toMatchObject({ content: "Sorry, I couldn't process your request. Please try again.", status: 'error' });

    actor.send({ type: 'message.submit', text: 'To Penang', ...options });
    expect(actor.getSnapshot().context.failureDetail).toBeNull();
    actor.send({ type: 'stream.chunk', text: 'Pen' });
    actor.send({ type: 'stream.failed', phase: 'stream' });
    s = actor.getSnapshot();
    expect(s.context.messages.at(-1)!.content).toBe('Sorry, I encountered an error while processing your request. Please try again.');

    actor.send({ type: 'messages.refresh' });
    expect(actor.getSnapshot().hasTag('refreshing')).toBe(true);
    actor.send({ type: 'xstate.error.actor.loadRecent', error: loadFailure('timeout', null), actorId: 'loadRecent' });
    expect(out.at(-1)).toEqual({ type: 'notice.show', tone: 'error', text: 'Failed to refresh messages. Failed to fetch recent messages' });
    expect(actor.getSnapshot().value).toBe('networkError');

    actor.send({ type: 'messages.refresh' });
    actor.send({ type: 'xstate.done.actor.loadRecent', output: recent, actorId: 'loadRecent' });
    s = actor.getSnapshot();
    expect(out.at(-1)).toEqual({ type: 'notice.show', tone: 'success', text: 'Messages refreshed successfully' });
    expect(s.value).toBe('idle');
    expect(s.can({ type: 'messages.refresh' })).toBe(false);
    expect(s.context.messages.map((m) => m.id)).toEqual(['u1', 'a1', 'u2', 'a2']);
  });

  it("a refresh failure shows the server's detail, and an empty answer fails with 'No messages found in the response'", () => {
    const { actor, out } = start({ conversationId: 'c1' });
    actor.send({ type: 'xstate.done.actor.loadMessages', output: loaded, actorId: 'loadMessages' });
    actor.send({ type: 'message.submit', text: 'To Penang', ...options });
    actor.send({ type: 'stream.failed', phase: 'stream' });
    const before = actor.getSnapshot().context;
    actor.send({ type: 'messages.refresh' });
    actor.send({ type: 'xstate.error.actor.loadRecent', error: loadFailure('HTTP 404', 'Conversation not found'), actorId: 'loadRecent' });
    expect(out.at(-1)).toEqual({ type: 'notice.show', tone: 'error', text: 'Failed to refresh messages. Conversation not found' });
    actor.send({ type: 'messages.refresh' });
    actor.send({ type: 'xstate.done.actor.loadRecent', output: emptyAnswer, actorId: 'loadRecent' });
    expect(out.at(-1)).toEqual({ type: 'notice.show', tone: 'error', text: 'Failed to refresh messages. No messages found in the response' });
    expect(actor.getSnapshot().value).toBe('networkError');
    expect(actor.getSnapshot().context).toEqual(before);
  });

  it('a first exchange whose reply failed is still reported completed with 2 messages (its title is polled for)', () => {
    const { actor, out } = start({ conversationId: null });
    actor.send({ type: 'message.submit', text: 'Hello', ...options });
    actor.send({ type: 'stream.control', conversationId: 'c9', messageId: 'a9', userMessageId: 'u9' });
    actor.send({ type: 'stream.error', errorType: 'llm', message: 'Model unavailable' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.messages.at(-1)!.status).toBe('error');
    expect(out).toEqual([
      { type: 'conversation.created', conversationId: 'c9' },
      { type: 'exchange.completed', conversationId: 'c9', messageCount: 2 },
    ]);
  });

  it('server-reported errors: the error marker once, the unknown-error text shown, reported as a later exchange', () => {
    const { actor, out } = start({ conversationId: 'c1' });
    actor.send({ type: 'xstate.done.actor.loadMessages', output: loaded, actorId: 'loadMessages' });
    actor.send({ type: 'message.submit', text: 'Long answer please', ...options });
    actor.send({ type: 'stream.chunk', text: 'Part one' });
    actor.send({ type: 'stream.error', errorType: 'max-tokens', message: 'Token limit reached' });
    let s = actor.getSnapshot();
    expect(s.value).toBe('idle');
    expect(s.context.messages.at(-1)).toMatchObject({ content: 'Part one\n\n:::error{type="max-tokens"}\nToken limit reached\n:::', status: 'error' });
    // Not a first exchange: the screen starts no title poll for it.
    expect(out).toEqual([{ type: 'exchange.completed', conversationId: 'c1', messageCount: s.context.messages.length }]);
    expect(s.context.messages.length).toBeGreaterThan(2);
    out.length = 0;

    // The server streams its own marker before the error record: it is not added twice.
    const streamed = `Part two\n\n${errorMarker('llm', UNKNOWN_STREAM_ERROR)}`;
    actor.send({ type: 'message.submit', text: 'Again', ...options });
    actor.send({ type: 'stream.chunk', text: streamed });
    actor.send({ type: 'stream.error', errorType: 'unknown', message: UNKNOWN_STREAM_ERROR });
    s = actor.getSnapshot();
    expect(s.context.messages.at(-1)!.content).toBe(streamed);
    expect(s.context.messages.at(-1)!.content).toContain('An unknown error occurred');

    // No text before the error: the marker alone ('unknown' has no marker type of its own: 'llm').
    actor.send({ type: 'message.submit', text: 'Once more', ...options });
    actor.send({ type: 'stream.error', errorType: 'unknown', message: 'An unknown error occurred' });
    expect(actor.getSnapshot().context.messages.at(-1)!.content).toBe(':::error{type="llm"}\nAn unknown error occurred\n:::');
    actor.send({ type: 'message.submit', text: 'And again', ...options });
    actor.send({ type: 'stream.error', errorType: 'llm', message: 'Model unavailable' });
    expect(actor.getSnapshot().context.messages.at(-1)!.content).toBe(':::error{type="llm"}\nModel unavailable\n:::');
    expect(out.every((e) => e.type === 'exchange.completed' && e.messageCount > 2)).toBe(true);
  });

  it('editing replaces the text, drops later messages and resends with message_id_to_edit', () => {
    const { actor } = start({ conversationId: 'c1' });
    actor.send({ type: 'xstate.done.actor.loadMessages', output: recent, actorId: 'loadMessages' });
    expect(actor.getSnapshot().can({ type: 'message.edit', messageId: 'a1', text: 'x', ...options })).toBe(false);
    actor.send({ type: 'message.edit', messageId: 'u2', text: 'To Langkawi', ...options });
    const s = actor.getSnapshot();
    expect(s.context.messages.map((m) => [m.id, m.content])).toEqual([
      ['a1', 'Sure.'],
      ['u2', 'To Langkawi'],
      ['temp-assistant-2', ''],
    ]);
    expect(sent.at(-1)).toEqual({ conversation_id: 'c1', message: 'To Langkawi', browsing: false, image_generation: false, reasoning_effort: 'low', message_id_to_edit: 'u2' });
  });

  it("an edit of a message the server no longer has ends in networkError with 'Message not found' (through the real send actor)", async () => {
    const api = fakeApi({
      streamMessage: async () => {
        throw new StreamFailure('request', 'Message not found', 404);
      },
    });
    const { actor, out } = start({ conversationId: 'c1' }, chatSendMachine.provide({ actors: defineChatSendActors({ api }) }));
    actor.send({ type: 'xstate.done.actor.loadMessages', output: loaded, actorId: 'loadMessages' });
    actor.send({ type: 'message.edit', messageId: 'u1', text: 'Plan a trip to Ipoh', ...options });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('networkError'));
    const s = actor.getSnapshot();
    expect(s.context.failureDetail).toBe('Message not found');
    expect(s.context.messages.at(-1)).toMatchObject({ content: SEND_REQUEST_FAILED, status: 'error' });
    expect(s.can({ type: 'messages.refresh' })).toBe(true);
    expect(out).toEqual([]);
  });

  it('keeps the loaded conversation title for the header, and forgets it when another opens', () => {
    const { actor } = start({ conversationId: 'c1' });
    expect(actor.getSnapshot().context.title).toBeNull();
    actor.send({ type: 'xstate.done.actor.loadMessages', output: loaded, actorId: 'loadMessages' });
    expect(actor.getSnapshot().context.title).toBe(loaded.conversation.title);
    actor.send({ type: 'conversation.open', conversationId: null });
    expect(actor.getSnapshot().context.title).toBeNull();
  });

  it("a failed load sets the spec text and reports 'Failed to fetch messages'; opening the same id again retries", () => {
    const { actor, out } = start({ conversationId: 'c1' });
    actor.send({ type: 'xstate.error.actor.loadMessages', error: new Error('500'), actorId: 'loadMessages' });
    expect(actor.getSnapshot().context.loadError).toBe('Failed to fetch messages');
    expect(out).toEqual([{ type: 'notice.show', tone: 'error', text: 'Failed to fetch messages' }]);
    actor.send({ type: 'conversation.open', conversationId: 'c1' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.loadError).toBeNull();
  });

  it('selecting another conversation or a new chat stops the sendMessage child (aborts the send)', () => {
    const { actor } = start({ conversationId: 'c1' });
    actor.send({ type: 'xstate.done.actor.loadMessages', output: loaded, actorId: 'loadMessages' });
    actor.send({ type: 'message.submit', text: 'Hi', ...options });
    expect(actor.getSnapshot().children.sendMessage).toBeDefined();
    actor.send({ type: 'conversation.open', conversationId: 'c2' });
    expect(aborts).toBe(1);
    expect(actor.getSnapshot().children.sendMessage).toBeUndefined();
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.messages).toEqual([]);
    actor.send({ type: 'conversation.open', conversationId: null });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'message.submit', text: 'Hi', ...options });
    actor.send({ type: 'stream.chunk', text: 'Hel' });
    actor.send({ type: 'conversation.open', conversationId: null });
    expect(aborts).toBe(2);
    expect(actor.getSnapshot().children.sendMessage).toBeUndefined();
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('a real callback actor streams through sendBack', async () => {
    const machine = chatSendMachine.provide({
      actors: {
        sendMessage: fromCallback<EventObject, SendMessageInput>(({ sendBack }) => {
          const timers = [
            setTimeout(() => sendBack({ type: 'stream.control', conversationId: 'c5', messageId: 'a5', userMessageId: 'u5' }), 1),
            setTimeout(() => sendBack({ type: 'stream.chunk', text: 'Hello' }), 2),
            setTimeout(() => sendBack({ type: 'stream.chunk', text: ', world' }), 3),
            setTimeout(() => sendBack({ type: 'stream.done', messageId: 'a5', usage, stopped: false }), 4),
          ];
          return () => timers.forEach(clearTimeout);
        }),
      },
    });
    const { actor, out } = start({ conversationId: null }, machine);
    actor.send({ type: 'message.submit', text: 'Hi', ...options });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('idle'));
    expect(actor.getSnapshot().context.messages.at(-1)!.content).toBe('Hello, world');
    expect(out.map((e) => e.type)).toEqual(['conversation.created', 'exchange.completed']);
  });

  it('with no sendMessage provided, a send ends in networkError with the request sentence', () => {
    const { actor } = start({ conversationId: null }, chatSendMachine);
    actor.send({ type: 'message.submit', text: 'Hi', ...options });
    const s = actor.getSnapshot();
    expect(s.value).toBe('networkError');
    expect(s.context.messages.at(-1)!.content).toBe(SEND_REQUEST_FAILED);
  });

  it('reported events reach the parent screen machine, in order', () => {
    const child = testMachine();
    const parent = setup({
      types: { context: {} as { seen: ChatSendReported[] }, events: {} as ChatSendReported | ChatSendEvent },
      actors: { chatSend: child },
    }).createMachine({
      context: { seen: [] },
      invoke: { id: 'chatSend', src: 'chatSend', input: ({ self }) => ({ conversationId: null, parent: self }) },
      on: {
        'conversation.created': { actions: assign({ seen: ({ context, event }) => [...context.seen, event as ChatSendReported] }) },
        'exchange.completed': { actions: assign({ seen: ({ context, event }) => [...context.seen, event as ChatSendReported] }) },
        'notice.show': { actions: assign({ seen: ({ context, event }) => [...context.seen, event as ChatSendReported] }) },
      },
    });
    const screen = createActor(parent).start();
    const chat = screen.getSnapshot().children.chatSend!;
    chat.send({ type: 'message.submit', text: 'Hello', ...options });
    chat.send({ type: 'stream.control', conversationId: 'c9', messageId: 'a9', userMessageId: 'u9' });
    chat.send({ type: 'stream.done', messageId: 'a9', usage, stopped: false });
    chat.send({ type: 'conversation.open', conversationId: 'c3' });
    chat.send({ type: 'xstate.error.actor.loadMessages', error: new Error('500'), actorId: 'loadMessages' });
    expect(screen.getSnapshot().context.seen).toEqual([
      { type: 'conversation.created', conversationId: 'c9' },
      { type: 'exchange.completed', conversationId: 'c9', messageCount: 2 },
      { type: 'notice.show', tone: 'error', text: 'Failed to fetch messages' },
    ]);
  });
});

describe('chat-send (earlier messages)', () => {
  it('puts earlier pages before the messages while a reply is written, until the first message is loaded', () => {
    const { actor, out } = start({ conversationId: 'c1' });
    expect(actor.getSnapshot().can({ type: 'messages.loadEarlier' })).toBe(false);
    actor.send({ type: 'xstate.done.actor.loadMessages', output: latestPage, actorId: 'loadMessages' });
    actor.send({ type: 'message.submit', text: 'And dinner?', ...options });
    actor.send({ type: 'stream.chunk', text: 'Try the ' });
    actor.send({ type: 'messages.loadEarlier' });
    let s = actor.getSnapshot();
    expect(s.context.loadingEarlier).toBe('before-u5');
    // One load at a time.
    expect(s.can({ type: 'messages.loadEarlier' })).toBe(false);
    actor.send({ type: 'xstate.done.actor.loadEarlier', output: earlierPages['before-u5']!, actorId: 'loadEarlier' });
    actor.send({ type: 'stream.chunk', text: 'night market.' });
    s = actor.getSnapshot();
    expect(s.value).toEqual({ replying: 'streaming' });
    expect(s.context.messages.map((m) => m.id)).toEqual(['u3', 'a3', 'u4', 'a4', 'u5', 'a5', 'temp-user-2', 'temp-assistant-3']);
    actor.send({ type: 'stream.done', messageId: 'a6', usage, stopped: false });
    s = actor.getSnapshot();
    expect(s.context.messages.at(-1)).toMatchObject({ id: 'a6', content: 'Try the night market.', status: 'complete' });
    expect(s.context.earlierCursor).toBe('before-u3');

    actor.send({ type: 'messages.loadEarlier' });
    actor.send({ type: 'xstate.done.actor.loadEarlier', output: earlierPages['before-u3']!, actorId: 'loadEarlier' });
    s = actor.getSnapshot();
    expect(s.context.messages.slice(0, 6).map((m) => m.id)).toEqual(['u1', 'a1', 'u2', 'a2', 'u3', 'a3']);
    expect(s.context.earlierCursor).toBeNull();
    expect(s.can({ type: 'messages.loadEarlier' })).toBe(false);
    expect(out.filter((e) => e.type === 'notice.show')).toEqual([]);
  });

  it("a failed earlier load says 'Failed to fetch messages', changes nothing else and can be tried again", () => {
    const { actor, out } = start({ conversationId: 'c1' });
    actor.send({ type: 'xstate.done.actor.loadMessages', output: latestPage, actorId: 'loadMessages' });
    const before = actor.getSnapshot().context;
    actor.send({ type: 'messages.loadEarlier' });
    actor.send({ type: 'xstate.error.actor.loadEarlier', error: new Error('503'), actorId: 'loadEarlier' });
    expect(out).toEqual([notice('error', FETCH_MESSAGES_FAILED)]);
    expect(actor.getSnapshot().context).toEqual(before);
    expect(actor.getSnapshot().can({ type: 'messages.loadEarlier' })).toBe(true);
  });

  it('opening another conversation stops the earlier load', () => {
    const { actor } = start({ conversationId: 'c1' });
    actor.send({ type: 'xstate.done.actor.loadMessages', output: latestPage, actorId: 'loadMessages' });
    actor.send({ type: 'messages.loadEarlier' });
    expect(actor.getSnapshot().children.loadEarlier).toBeDefined();
    actor.send({ type: 'conversation.open', conversationId: 'c2' });
    const s = actor.getSnapshot();
    expect(s.children.loadEarlier).toBeUndefined();
    expect(s.context).toMatchObject({ conversationId: 'c2', earlierCursor: null, loadingEarlier: null, messages: [] });
  });
});

// --- the src actors over fake API functions ---

function fakeApi(overrides: Partial<ChatSendApi> = {}): ChatSendApi {
  return {
    fetchMessages: () => new Promise(() => {}),
    fetchRecentMessages: () => new Promise(() => {}),
    streamMessage: () => new Promise(() => {}),
    stopReply: () => new Promise(() => {}),
    // No follow stream unless a test gives one: following falls back to the poll at once.
    followReply: () => Promise.reject(new Error('no follow stream here')),
    ...overrides,
  };
}

describe('chat-send actors (src/features/chat/chat-send-actors.ts)', () => {
  it("a load failure carries the server's detail only when the server answered", async () => {
    const failWith = (error: unknown) =>
      fakeApi({
        fetchRecentMessages: async () => {
          throw error;
        },
      });
    const refresh = async (api: ChatSendApi) => {
      const { actor, out } = start({ conversationId: 'c1' }, chatSendMachine.provide({ actors: defineChatSendActors({ api }) }));
      actor.send({ type: 'xstate.done.actor.loadMessages', output: loaded, actorId: 'loadMessages' });
      actor.send({ type: 'message.submit', text: 'Hi', ...options });
      actor.send({ type: 'stream.failed', phase: 'request' });
      actor.send({ type: 'messages.refresh' });
      await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('networkError'));
      return out.at(-1);
    };
    expect(await refresh(failWith(new ApiError({ status: 409, detail: 'Busy' })))).toEqual(notice('error', 'Failed to refresh messages. Busy'));
    expect(await refresh(failWith(new ApiError({ status: 0, detail: 'Network Error' })))).toEqual(notice('error', 'Failed to refresh messages. Failed to fetch recent messages'));
    expect(serverDetailOf(new Error('x'))).toBeNull();
    expect(serverDetailOf(loadFailure('x', ''))).toBeNull();
  });

  it('loadEarlier asks the API for the page before the cursor', async () => {
    const calls: Array<[string, string | undefined]> = [];
    const api = fakeApi({
      fetchMessages: async (id, _signal, before) => {
        calls.push([id, before]);
        return before ? earlierPages[before]! : latestPage;
      },
    });
    const { actor } = start({ conversationId: 'c1' }, chatSendMachine.provide({ actors: defineChatSendActors({ api }) }));
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('idle'));
    actor.send({ type: 'messages.loadEarlier' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.loadingEarlier).toBeNull());
    expect(calls).toEqual([
      ['c1', undefined],
      ['c1', 'before-u5'],
    ]);
    expect(actor.getSnapshot().context.messages.map((m) => m.id)).toEqual(['u3', 'a3', 'u4', 'a4', 'u5', 'a5']);
  });

  it('loadMessages and loadRecent call the API with the conversation id and a signal', async () => {
    const calls: Array<[string, string, boolean]> = [];
    const api = fakeApi({
      fetchMessages: async (id, signal) => {
        calls.push(['messages', id, signal instanceof AbortSignal]);
        return loaded;
      },
      fetchRecentMessages: async (id, signal) => {
        calls.push(['recent', id, signal instanceof AbortSignal]);
        return recent;
      },
    });
    const { actor } = start({ conversationId: 'c1' }, chatSendMachine.provide({ actors: defineChatSendActors({ api }) }));
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('idle'));
    actor.send({ type: 'message.submit', text: 'Hi', ...options });
    actor.send({ type: 'stream.failed', phase: 'request' });
    actor.send({ type: 'messages.refresh' });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('idle'));
    expect(calls).toEqual([
      ['messages', 'c1', true],
      ['recent', 'c1', true],
    ]);
  });
});

describe('chat-send (following a reply written elsewhere)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The real src actors over a fake API whose recent messages come from `next`. */
  const following = (next: () => Promise<ConversationMessages>) => {
    const calls: string[] = [];
    const api = fakeApi({
      fetchRecentMessages: (id) => {
        calls.push(id);
        return next();
      },
    });
    return { machine: chatSendMachine.provide({ actors: defineChatSendActors({ api }) }), calls };
  };
  const queue = (answers: Array<ConversationMessages | Error>) => () => {
    const answer = answers.shift();
    if (answer === undefined) return new Promise<ConversationMessages>(() => {});
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  };
  const reply = (id: string, content: string, status: ChatMessage['status']): ChatMessage => ({ ...msg(id, 'Assistant', content), status });

  it("a reload mid-reply reads the reply's stream as it is written, then the saved reply once; no poll", async () => {
    const recentCalls: string[] = [];
    let chunk: (text: string) => void = () => {};
    let end: (how: 'done' | 'ended') => void = () => {};
    const followed: string[] = [];
    const api = fakeApi({
      fetchRecentMessages: async (id) => {
        recentCalls.push(id);
        return { conversation, messages: [msg('u1', 'user', 'Plan a trip'), reply('a1', 'Sure, let me plan it.', 'complete')], earlier_cursor: null };
      },
      followReply: (id, handlers) => {
        followed.push(id);
        chunk = handlers.onChunk;
        return new Promise((resolve) => (end = resolve));
      },
    });
    const { actor, out } = start({ conversationId: 'c1' }, chatSendMachine.provide({ actors: defineChatSendActors({ api }) }));
    actor.send({ type: 'xstate.done.actor.loadMessages', output: midReply2, actorId: 'loadMessages' });
    expect(followed).toEqual(['a1']);
    // The stream starts with the text so far, then grows; the reply shows each step.
    chunk('Sure, let me');
    expect(actor.getSnapshot().context.messages.at(-1)).toMatchObject({ id: 'a1', content: 'Sure, let me', status: 'streaming' });
    chunk(' plan it.');
    expect(actor.getSnapshot().context.messages.at(-1)).toMatchObject({ content: 'Sure, let me plan it.', status: 'streaming' });
    expect(recentCalls).toEqual([]);
    end('done');
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('idle'));
    expect(recentCalls).toEqual(['c1']);
    expect(actor.getSnapshot().context.messages.at(-1)).toMatchObject({ content: 'Sure, let me plan it.', status: 'complete' });
    expect(out).toEqual([{ type: 'exchange.completed', conversationId: 'c1', messageCount: 2 }]);
  });

  it('a follow stream that ends without done (the reply not known there) falls back to the poll', async () => {
    vi.useFakeTimers();
    const recentCalls: string[] = [];
    const api = fakeApi({
      fetchRecentMessages: async (id) => {
        recentCalls.push(id);
        return { conversation, messages: [msg('u1', 'user', 'Plan a trip'), reply('a1', 'Sure, let me plan it.', 'complete')], earlier_cursor: null };
      },
      followReply: async () => 'ended',
    });
    const { actor } = start({ conversationId: 'c1' }, chatSendMachine.provide({ actors: defineChatSendActors({ api }) }));
    actor.send({ type: 'xstate.done.actor.loadMessages', output: midReply2, actorId: 'loadMessages' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches('following')).toBe(true);
    expect(recentCalls).toEqual([]);
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS);
    expect(recentCalls).toEqual(['c1']);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('keeps the follow constants', () => {
    expect(FOLLOW_INTERVAL_MS).toBe(1000);
    expect(MAX_FOLLOW_ATTEMPTS).toBe(600);
  });

  it('a reload mid-reply follows it every second until complete; only a first exchange reports exchange.completed', async () => {
    vi.useFakeTimers();
    const { machine, calls } = following(
      queue([
        { conversation, messages: [msg('u1', 'user', 'Plan a trip'), reply('a1', 'Sure, let me', 'streaming')], earlier_cursor: null },
        { conversation, messages: [msg('u1', 'user', 'Plan a trip'), reply('a1', 'Sure, let me plan it.', 'complete')], earlier_cursor: null },
      ]),
    );
    const { actor, out } = start({ conversationId: 'c1' }, machine);
    actor.send({ type: 'xstate.done.actor.loadMessages', output: midReply2, actorId: 'loadMessages' });
    let s = actor.getSnapshot();
    expect(s.matches('following')).toBe(true);
    expect([s.hasTag('busy'), s.hasTag('following'), s.hasTag('streaming'), s.hasTag('thinking')]).toEqual([true, true, false, false]);
    expect(s.can({ type: 'message.submit', text: 'Hi', ...options })).toBe(false);
    expect(s.can({ type: 'message.edit', messageId: 'u1', text: 'Hi', ...options })).toBe(false);
    // The partial reply is the message's own content (no live streaming text).
    expect(displayedContent(s.context, s.context.messages.at(-1)!)).toBe('Sure, let');

    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS - 1);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual(['c1']);
    s = actor.getSnapshot();
    expect(s.matches('following')).toBe(true);
    expect(s.context.messages.at(-1)).toMatchObject({ content: 'Sure, let me', status: 'streaming' });
    expect(out).toEqual([]);

    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS);
    s = actor.getSnapshot();
    expect(s.value).toBe('idle');
    expect(s.hasTag('busy')).toBe(false);
    expect(s.children.follow).toBeUndefined();
    expect(s.context.messages.map((m) => [m.id, m.content, m.status])).toEqual([
      ['u1', 'Plan a trip', 'complete'],
      ['a1', 'Sure, let me plan it.', 'complete'],
    ]);
    expect(out).toEqual([{ type: 'exchange.completed', conversationId: 'c1', messageCount: 2 }]);
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS * 5);
    expect(calls.length).toBe(2);

    // A later exchange completing elsewhere is not a first exchange: nothing is reported.
    const later = following(queue([{ conversation, messages: [msg('u2', 'user', 'To Penang'), reply('a2', 'Penang it is.', 'complete')], earlier_cursor: null }]));
    const second = start({ conversationId: 'c1' }, later.machine);
    second.actor.send({ type: 'xstate.done.actor.loadMessages', output: midReply4, actorId: 'loadMessages' });
    expect(second.actor.getSnapshot().matches('following')).toBe(true);
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS);
    expect(second.actor.getSnapshot().value).toBe('idle');
    expect(second.actor.getSnapshot().context.messages.map((m) => m.id)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(second.out).toEqual([]);
  });

  it('a failed check ends in networkError with the reply as loaded; Refresh follows it again', async () => {
    vi.useFakeTimers();
    const { machine, calls } = following(
      queue([
        new ApiError({ status: 0, detail: 'Network Error' }),
        recentMidReply,
        { conversation, messages: [msg('u2', 'user', 'To Penang'), reply('a2', 'Penang it is.', 'complete')], earlier_cursor: null },
      ]),
    );
    const { actor, out } = start({ conversationId: 'c1' }, machine);
    actor.send({ type: 'xstate.done.actor.loadMessages', output: midReply4, actorId: 'loadMessages' });
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS);
    let s = actor.getSnapshot();
    expect(s.value).toBe('networkError');
    expect(s.context.failureDetail).toBe('Network Error');
    // Not rewritten with a send-failure sentence: the reply the server is writing keeps its text and status.
    expect(s.context.messages).toEqual(midReply4.messages);
    expect(out).toEqual([]);
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS * 5);
    expect(calls.length).toBe(1);

    actor.send({ type: 'messages.refresh' });
    await vi.advanceTimersByTimeAsync(0);
    s = actor.getSnapshot();
    expect(s.matches('following')).toBe(true);
    expect(s.context.failureDetail).toBeNull();
    expect(out).toEqual([notice('success', MESSAGES_REFRESHED)]);
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS);
    s = actor.getSnapshot();
    expect(s.value).toBe('idle');
    expect(s.context.messages.at(-1)).toMatchObject({ id: 'a2', content: 'Penang it is.', status: 'complete' });
    expect(calls.length).toBe(3);
    expect(out).toEqual([notice('success', MESSAGES_REFRESHED)]);
  });

  it('opening another conversation or a new chat stops the follow poll and its check', async () => {
    vi.useFakeTimers();
    let resolveCheck: (value: ConversationMessages) => void = () => {};
    const { machine, calls } = following(() => new Promise((resolve) => (resolveCheck = resolve)));
    const { actor, out } = start({ conversationId: 'c1' }, machine);

    // While waiting: the timer is cancelled.
    actor.send({ type: 'xstate.done.actor.loadMessages', output: midReply2, actorId: 'loadMessages' });
    actor.send({ type: 'conversation.open', conversationId: 'c2' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().children.follow).toBeUndefined();
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS * 10);
    expect(calls).toEqual([]);

    // While checking: the request is stopped and its late answer ignored.
    actor.send({ type: 'xstate.done.actor.loadMessages', output: { ...midReply2, conversation: { ...conversation, id: 'c2' } }, actorId: 'loadMessages' });
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS);
    expect(calls).toEqual(['c2']);
    expect((actor.getSnapshot().children.follow!.getSnapshot().children as { poll?: { getSnapshot(): { hasTag(t: string): boolean } } }).poll!.getSnapshot().hasTag('checking')).toBe(true);
    actor.send({ type: 'conversation.open', conversationId: null });
    let s = actor.getSnapshot();
    expect(s.value).toBe('idle');
    expect(s.children.follow).toBeUndefined();
    resolveCheck({ conversation, messages: [msg('u1', 'user', 'Plan a trip'), reply('a1', 'Done.', 'complete')], earlier_cursor: null });
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS * 10);
    s = actor.getSnapshot();
    expect(s.value).toBe('idle');
    expect(s.context.messages).toEqual([]);
    expect(s.context.conversationId).toBeNull();
    expect(calls).toEqual(['c2']);
    expect(out).toEqual([]);
  });

  it(`gives up after ${MAX_FOLLOW_ATTEMPTS} checks (ten minutes), leaving the reply as last loaded`, async () => {
    vi.useFakeTimers();
    const still = { conversation, messages: [msg('u1', 'user', 'Plan a trip'), reply('a1', 'Still writing', 'streaming')], earlier_cursor: null };
    const { machine, calls } = following(() => Promise.resolve(still));
    const { actor, out } = start({ conversationId: 'c1' }, machine);
    actor.send({ type: 'xstate.done.actor.loadMessages', output: midReply2, actorId: 'loadMessages' });
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS * (MAX_FOLLOW_ATTEMPTS - 1));
    expect(calls.length).toBe(MAX_FOLLOW_ATTEMPTS - 1);
    expect(actor.getSnapshot().matches('following')).toBe(true);
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS);
    const s = actor.getSnapshot();
    expect(calls.length).toBe(MAX_FOLLOW_ATTEMPTS);
    expect(s.value).toBe('idle');
    expect(s.context.messages).toEqual(still.messages);
    expect(out).toEqual([]);
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS * 10);
    expect(calls.length).toBe(MAX_FOLLOW_ATTEMPTS);
  });
});
