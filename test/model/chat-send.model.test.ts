import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import {
  chatSendMachine,
  displayedContent,
  FETCH_MESSAGES_FAILED,
  FOLLOW_INTERVAL_MS,
  MAX_FOLLOW_ATTEMPTS,
  SEND_REQUEST_FAILED,
  SEND_STREAM_FAILED,
  streamErrorContent,
  type ChatSendEmitted,
  type ChatSendEvent,
  type SendMessageInput,
} from '../../machines/chat-send.machine';
import { type ChatMessage, type ConversationMessages, type SendMessageRequest, type Usage } from '../../contract/chat';
import { UNKNOWN_STREAM_ERROR } from '../../contract/chat-constants';
import { errorMarker } from '../../contract/markers';
import { runModelTest } from './support/run-model';

type Snap = SnapshotFrom<typeof chatSendMachine>;

const at = '2025-01-01T10:00:00.000Z';
const msg = (id: string, sender: ChatMessage['sender'], content: string, conversation_id = 'c1'): ChatMessage => ({
  id, conversation_id, content, sender, status: 'complete', created_at: at,
});
const conversation = { id: 'c1', title: 'Trip planning', created_at: at, updated_at: at };
const loaded: ConversationMessages = { conversation, messages: [msg('u1', 'user', 'Plan a trip'), msg('a1', 'Assistant', 'Sure.')] };
/** Recent messages start at a1, which the list has: everything from a1 on is replaced. */
const recent: ConversationMessages = {
  conversation,
  messages: [msg('a1', 'Assistant', 'Sure.'), msg('u2', 'user', 'To Penang'), msg('a2', 'Assistant', 'Penang it is.')],
};
/** Reloaded while the server was still writing the first reply of a new conversation. */
const midReply2: ConversationMessages = {
  conversation: { ...conversation, title: 'New Conversation' },
  messages: [msg('u1', 'user', 'Plan a trip'), { ...msg('a1', 'Assistant', 'Sure, let'), status: 'streaming' }],
};
/** Reloaded mid-reply of a later exchange. */
const midReply4: ConversationMessages = {
  conversation,
  messages: [...loaded.messages, msg('u2', 'user', 'To Penang'), { ...msg('a2', 'Assistant', 'Penang i'), status: 'streaming' }],
};
/** A refresh that finds the reply still being written. */
const recentMidReply: ConversationMessages = {
  conversation,
  messages: [msg('a1', 'Assistant', 'Sure.'), msg('u2', 'user', 'To Penang'), { ...msg('a2', 'Assistant', 'Penang i'), status: 'streaming' }],
};
/** A poll while following: the last two messages again, the reply still written or finished. */
const followPoll = (s: Snap, status: 'streaming' | 'complete'): ConversationMessages => {
  const tail = s.context.messages.slice(-2);
  return {
    conversation,
    messages: tail.map((m, i) => (i === tail.length - 1 ? { ...m, status, content: status === 'streaming' ? 'Still writing' : 'All written.' } : m)),
  };
};
const FOLLOW_AFTER = 'xstate.after.FOLLOW_INTERVAL.chatSend.following.waiting';
const isStreamingReply = (m: ChatMessage) => m.sender === 'Assistant' && m.status === 'streaming';
const usage: Usage = { prompt_tokens: 12, completion_tokens: 34 };
const options = { browsing: false, imageGeneration: false, reasoningEffort: 'low' as const };

// --- fakes and what they saw (one live actor at a time) ---
let sent: SendMessageInput[] = [];
let aborts = 0;
let loads: Array<{ conversationId: string }> = [];
let recentLoads: Array<{ conversationId: string }> = [];
let emitted: ChatSendEmitted[] = [];

const testMachine = (machine = modelMachine) =>
  machine.provide({
    actors: {
      loadMessages: fromPromise<ConversationMessages, { conversationId: string }>(({ input }) => {
        loads.push(input);
        return new Promise(() => {});
      }),
      loadRecent: fromPromise<ConversationMessages, { conversationId: string }>(({ input }) => {
        recentLoads.push(input);
        return new Promise(() => {});
      }),
      sendMessage: fromCallback<EventObject, SendMessageInput>(({ input }) => {
        sent.push(input);
        return () => {
          aborts += 1;
        };
      }),
    },
  });

/**
 * The model runs the real machine with the give-up bound lowered (MAX_FOLLOW_ATTEMPTS polls would be a 600-rung
 * ladder in the key); the real bound is covered by an example below.
 */
const MODEL_MAX_FOLLOW_ATTEMPTS = 2;
const modelMachine = chatSendMachine.provide({
  guards: { followAttemptsUsedUp: ({ context }) => context.followAttempts + 1 >= MODEL_MAX_FOLLOW_ATTEMPTS },
});

let serverIds = 0;
const firstSavedUserMessage = (s: Snap) => s.context.messages.find((m) => m.sender === 'user' && !m.id.startsWith('temp-'));

const eventsFor = (s: Snap): EventFrom<typeof chatSendMachine>[] => {
  const current = s.context.conversationId;
  const open: ChatSendEvent[] = [
    { type: 'conversation.open', conversationId: current },
    { type: 'conversation.open', conversationId: current === 'c2' ? 'c1' : 'c2' },
    { type: 'conversation.open', conversationId: null },
  ];
  const editId = firstSavedUserMessage(s)?.id ?? 'u1';
  // Server ids are unique: a path's events come from the generator's stored snapshot for a key, not from the
  // snapshot the replay is in, so ids derived from the context could repeat an earlier exchange's.
  serverIds += 1;
  const control: ChatSendEvent = {
    type: 'stream.control',
    conversationId: current ?? 'new-1',
    messageId: `srv-a-${serverIds}`,
    userMessageId: `srv-u-${serverIds}`,
  };
  const done: ChatSendEvent = { type: 'stream.done', messageId: `srv-a-${serverIds}`, usage };
  if (s.matches({ following: 'waiting' })) {
    // Send, edit and refresh are listed to show they do nothing here.
    return [
      ...open,
      { type: FOLLOW_AFTER } as never,
      { type: 'message.submit', text: 'Hello Tanya', ...options },
      { type: 'message.edit', messageId: editId, text: 'Plan a trip to Ipoh', ...options },
      { type: 'messages.refresh' },
    ];
  }
  if (s.matches({ following: 'fetching' })) {
    return [
      ...open,
      { type: 'xstate.done.actor.loadRecent', output: followPoll(s, 'streaming') } as never,
      { type: 'xstate.done.actor.loadRecent', output: followPoll(s, 'complete') } as never,
      { type: 'xstate.error.actor.loadRecent', error: new Error('Network Error') } as never,
    ];
  }
  const value = s.value as string;
  switch (value) {
    case 'loading':
      return [
        ...open,
        { type: 'xstate.done.actor.loadMessages', output: loaded } as never,
        { type: 'xstate.done.actor.loadMessages', output: midReply2 } as never,
        { type: 'xstate.done.actor.loadMessages', output: midReply4 } as never,
        { type: 'xstate.error.actor.loadMessages', error: new Error('500') } as never,
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
      ];
    case 'thinking':
      return [
        ...open,
        control,
        { type: 'stream.chunk', text: 'Hel' },
        done,
        { type: 'stream.error', errorType: 'llm', message: 'The model is unavailable' },
        { type: 'stream.error', errorType: 'unknown', message: UNKNOWN_STREAM_ERROR },
        { type: 'stream.failed', phase: 'request', detail: 'Network Error' },
        { type: 'stream.failed', phase: 'stream', detail: 'socket closed' },
        { type: 'xstate.error.actor.sendMessage', error: new Error('boom'), actorId: 'sendMessage' } as const,
      ];
    case 'streaming':
      return [
        ...open,
        control,
        { type: 'stream.chunk', text: 'lo' },
        done,
        { type: 'stream.error', errorType: 'max-tokens', message: 'The reply reached the token limit' },
        { type: 'stream.failed', phase: 'stream', detail: 'socket closed' },
        { type: 'xstate.error.actor.sendMessage', error: new Error('boom'), actorId: 'sendMessage' } as const,
      ];
    case 'refreshing':
      return [
        ...open,
        { type: 'xstate.done.actor.loadRecent', output: recent } as never,
        { type: 'xstate.done.actor.loadRecent', output: recentMidReply } as never,
        { type: 'xstate.error.actor.loadRecent', error: new Error('Network Error') } as never,
      ];
    default:
      return open;
  }
};

// --- invariants checked after every step ---
let prev: Snap | null = null;
let emittedSeen = 0;
let abortsSeen = 0;
let recentLoadsSeen = 0;
/** This run has been in `following` (only then can a reply the server is writing stay in the list). */
let followed = false;
/** A send of ours is under way (the sendMessage child runs). */
const sending = (s: Snap | null) => Boolean(s && (s.matches('thinking') || s.matches('streaming')));
/** States that invoke loadRecent. */
const loadsRecent = (s: Snap | null) => Boolean(s && (s.matches('refreshing') || s.matches({ following: 'fetching' })));

function common(s: Snap, e: { type: string } | null) {
  const c = s.context;
  const fresh = emitted.slice(emittedSeen);
  emittedSeen = emitted.length;
  const newAborts = aborts - abortsSeen;
  abortsSeen = aborts;
  const newRecentLoads = recentLoads.length - recentLoadsSeen;
  recentLoadsSeen = recentLoads.length;
  if (s.matches('following')) followed = true;

  // Tags are exactly the documented ones.
  expect(s.hasTag('busy')).toBe(s.matches('thinking') || s.matches('streaming') || s.matches('following'));
  expect(s.hasTag('thinking')).toBe(s.matches('thinking'));
  expect(s.hasTag('streaming')).toBe(s.matches('streaming'));
  expect(s.hasTag('loading')).toBe(s.matches('loading'));
  expect(s.hasTag('error')).toBe(s.matches('networkError'));
  expect(s.hasTag('refreshing')).toBe(s.matches('refreshing'));
  expect(s.hasTag('following')).toBe(s.matches('following'));
  if (!s.matches('following')) expect(c.followAttempts).toBe(0);

  // Send is possible exactly in idle and networkError, and never with blank text.
  const canSend = s.matches('idle') || s.matches('networkError');
  expect(s.can({ type: 'message.submit', text: 'x', ...options })).toBe(canSend);
  expect(s.can({ type: 'message.submit', text: ' \t\n', ...options })).toBe(false);
  expect(s.can({ type: 'messages.refresh' })).toBe(
    c.conversationId !== null && (s.matches('networkError') || (s.matches('idle') && c.networkError)),
  );
  // Opening the conversation already open is a no-op (the URL caught up with the control record).
  if (c.conversationId !== null && c.loadError === null) {
    expect(s.can({ type: 'conversation.open', conversationId: c.conversationId })).toBe(false);
  }

  // Message ids are unique; only the pending reply is 'streaming', or a reply the server is writing, which is only
  // kept after following it (given up, or a poll failed).
  expect(new Set(c.messages.map((m) => m.id)).size).toBe(c.messages.length);
  const streamingOnes = c.messages.filter((m) => m.status === 'streaming');
  const serverStreaming = streamingOnes.filter((m) => m.id !== c.streamingMessageId);
  for (const m of serverStreaming) expect(isStreamingReply(m) && !m.id.startsWith('temp-')).toBe(true);
  if (!followed) expect(serverStreaming).toEqual([]);
  if (sending(s)) {
    expect(s.children.sendMessage).toBeDefined();
    const last = c.messages.at(-1)!;
    expect(streamingOnes.at(-1)).toBe(last);
    expect(last).toMatchObject({ sender: 'Assistant', status: 'streaming', content: '', id: c.streamingMessageId });
    expect(c.messages.at(-2)?.sender).toBe('user');
    expect(sent.at(-1)).toEqual(c.lastRequest);
  } else {
    // Leaving thinking/streaming always stops the request.
    expect(s.children.sendMessage).toBeUndefined();
    expect(c.streamingMessageId).toBeNull();
    expect(c.streamingText).toBe('');
  }
  if (sending(prev) && !sending(s)) expect(newAborts).toBe(1);
  else expect(newAborts).toBe(0);
  // loadRecent runs exactly in refreshing and following.fetching, once per entry; leaving stops it.
  expect(Boolean(s.children.loadRecent)).toBe(loadsRecent(s));
  expect(newRecentLoads).toBe(loadsRecent(s) && !loadsRecent(prev) ? 1 : 0);

  // Exactly the expected emitted events for the arrival event.
  const p = prev;
  const expected: ChatSendEmitted[] = [];
  if (e?.type === 'stream.control' && p) {
    const ev = e as Extract<ChatSendEvent, { type: 'stream.control' }>;
    if (p.context.conversationId !== ev.conversationId) expected.push({ type: 'conversation.created', conversationId: ev.conversationId });
  }
  if (e?.type === 'stream.done' && c.conversationId !== null) {
    expected.push({ type: 'exchange.completed', conversationId: c.conversationId, messageCount: c.messages.length });
  }
  if (e?.type === 'xstate.error.actor.loadMessages') expected.push({ type: 'messages.loadFailed' });
  if (e?.type === 'xstate.done.actor.loadRecent' && p?.matches('refreshing')) expected.push({ type: 'messages.refreshed' });
  if (e?.type === 'xstate.error.actor.loadRecent' && p?.matches('refreshing')) expected.push({ type: 'messages.refreshFailed', detail: 'Network Error' });
  // A followed reply that completed announces only a first exchange (title polling); a poll failure says nothing.
  if (e?.type === 'xstate.done.actor.loadRecent' && p?.matches('following') && s.matches('idle') && !c.messages.some(isStreamingReply) && c.messages.length === 2) {
    expected.push({ type: 'exchange.completed', conversationId: c.conversationId!, messageCount: 2 });
  }
  expect(fresh).toEqual(expected);

  // conversation.open resets everything.
  if (e?.type === 'conversation.open' && p && p.context.conversationId !== c.conversationId) {
    expect(c.messages).toEqual([]);
    expect(c.networkError).toBe(false);
    expect(c.loadError).toBeNull();
  }
  if (e?.type === 'stream.control') {
    expect(c.conversationId).toBe((e as Extract<ChatSendEvent, { type: 'stream.control' }>).conversationId);
    const ev = e as Extract<ChatSendEvent, { type: 'stream.control' }>;
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
  machine: modelMachine,
  testMachine: () => testMachine(),
  onActor: (actor) => {
    sent = [];
    aborts = 0;
    loads = [];
    recentLoads = [];
    emitted = [];
    prev = null;
    emittedSeen = 0;
    abortsSeen = 0;
    recentLoadsSeen = 0;
    followed = false;
    actor.on('*', (ev) => emitted.push(ev as ChatSendEmitted));
  },
  inputs: [{ conversationId: 'c1' }, { conversationId: null }],
  events: eventsFor,
  key: (s) =>
    JSON.stringify({
      v: s.value,
      c: s.context.conversationId !== null,
      n: s.context.networkError,
      e: Boolean(firstSavedUserMessage(s)),
      l: s.context.loadError !== null,
      // A reply the server is writing is in the list; while following: the polls so far, and a first exchange.
      s: s.context.messages.some(isStreamingReply) && !s.context.streamingMessageId,
      f: s.matches('following') ? [s.context.followAttempts, s.context.messages.length === 2] : null,
    }),
  // Simple paths over the full key (about 20 keys) explode; value + "has a conversation" gives a few hundred routes.
  simpleKey: (s) => JSON.stringify([s.value, s.context.conversationId !== null]),
  edgeKeys: true,
  checks: {
    loading: check((s) => {
      expect(s.context.conversationId).not.toBeNull();
      expect(s.context.messages).toEqual([]);
      expect(s.children.loadMessages).toBeDefined();
      expect(loads.at(-1)).toEqual({ conversationId: s.context.conversationId });
    }),
    idle: check((s, e, p) => {
      const c = s.context;
      if (e?.type === 'xstate.done.actor.loadMessages') {
        expect(c.messages).toEqual(loaded.messages);
        expect(c.loadError).toBeNull();
      }
      if (e?.type === FOLLOW_AFTER) throw new Error('the follow timer fired outside following');
      if (e?.type === 'xstate.error.actor.loadMessages') {
        expect(c.loadError).toBe(FETCH_MESSAGES_FAILED);
        expect(c.messages).toEqual([]);
      }
      if (e?.type === 'stream.done') {
        const ev = e as Extract<ChatSendEvent, { type: 'stream.done' }>;
        expect(c.messages.at(-1)).toMatchObject({ id: ev.messageId, sender: 'Assistant', status: 'complete', content: p!.context.streamingText });
        expect(c.lastUsage).toEqual(usage);
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
        expect(c.networkError).toBe(false);
        expect(c.failureDetail).toBeNull();
      }
      if (e?.type === 'xstate.done.actor.loadRecent' && p!.matches('refreshing')) {
        // Everything from a1 on replaced by the recent messages; nothing before it was touched.
        const i = c.messages.findIndex((m) => m.id === 'a1');
        if (i >= 0) expect(c.messages.slice(i)).toEqual(recent.messages);
        else expect(c.messages).toEqual(recent.messages);
        expect(c.messages.some(isStreamingReply)).toBe(false);
      }
      if (e?.type === 'xstate.done.actor.loadRecent' && p!.matches('following')) {
        const output = (e as unknown as { output: ConversationMessages }).output.messages;
        expect(c.messages.slice(-output.length)).toEqual(output);
        if (output.some(isStreamingReply)) {
          // Gave up after the last allowed poll: the reply is left as loaded.
          expect(p!.context.followAttempts).toBe(MODEL_MAX_FOLLOW_ATTEMPTS - 1);
          expect(c.messages.at(-1)).toMatchObject({ status: 'streaming', content: 'Still writing' });
        } else {
          expect(c.messages.at(-1)).toMatchObject({ status: 'complete', content: 'All written.' });
        }
      }
    }),
    thinking: check((s, e, p) => {
      const c = s.context;
      expect(c.streamingText).toBe('');
      if (e?.type === 'message.submit') {
        const ev = e as Extract<ChatSendEvent, { type: 'message.submit' }>;
        expect(c.messages.length).toBe(p!.context.messages.length + 2);
        expect(c.messages.at(-2)).toMatchObject({ sender: 'user', content: ev.text, status: 'complete' });
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
    }),
    streaming: check((s, e, p) => {
      expect(s.context.streamingText.length).toBeGreaterThan(0);
      if (e?.type === 'stream.chunk') {
        const text = (e as Extract<ChatSendEvent, { type: 'stream.chunk' }>).text;
        expect(s.context.streamingText).toBe(p!.context.streamingText + text);
        // A chunk does not copy the messages array.
        expect(s.context.messages).toBe(p!.context.messages);
      }
    }),
    networkError: check((s, e, p) => {
      const c = s.context;
      expect(c.networkError).toBe(true);
      // A failed send of ours, or a reply the server is writing whose poll failed.
      const failed = c.messages.filter((m) => m.status === 'error' && m.sender === 'Assistant');
      expect(failed.length > 0 || c.messages.some(isStreamingReply)).toBe(true);
      if (failed.length > 0) expect([SEND_REQUEST_FAILED, SEND_STREAM_FAILED]).toContain(failed.at(-1)!.content);
      if (e?.type === 'xstate.error.actor.loadRecent' && p!.matches('following')) {
        // Only the flag: the followed reply keeps its loaded content and status.
        expect(c.messages).toBe(p!.context.messages);
        expect(c.messages.at(-1)!.status).toBe('streaming');
        expect(c.failureDetail).toBe('Network Error');
      }
      if (e?.type === 'stream.failed') {
        const ev = e as Extract<ChatSendEvent, { type: 'stream.failed' }>;
        expect(c.messages.at(-1)!.content).toBe(ev.phase === 'request' ? SEND_REQUEST_FAILED : SEND_STREAM_FAILED);
        expect(c.failureDetail).toBe(ev.detail ?? null);
      }
      if (e?.type === 'xstate.error.actor.sendMessage') {
        expect(c.messages.at(-1)!.content).toBe(p!.matches('thinking') ? SEND_REQUEST_FAILED : SEND_STREAM_FAILED);
        expect(c.failureDetail).toBe('boom');
      }
      if (e?.type === 'xstate.error.actor.loadRecent') expect(c.messages).toEqual(p!.context.messages);
    }),
    refreshing: check((s) => {
      expect(s.context.conversationId).not.toBeNull();
      expect(s.children.loadRecent).toBeDefined();
      expect(recentLoads.at(-1)).toEqual({ conversationId: s.context.conversationId });
    }),
    following: check((s, e, p) => {
      const c = s.context;
      expect(c.conversationId).not.toBeNull();
      expect(c.networkError).toBe(false);
      expect(c.failureDetail).toBeNull();
      // The last assistant message is the one the server is writing; no send of ours runs.
      expect(c.messages.findLast((m) => m.sender === 'Assistant')?.status).toBe('streaming');
      expect(s.children.sendMessage).toBeUndefined();
      expect(c.followAttempts).toBeGreaterThanOrEqual(0);
      expect(c.followAttempts).toBeLessThan(MODEL_MAX_FOLLOW_ATTEMPTS);
      // Busy: no send, edit or refresh.
      const editable = firstSavedUserMessage(s);
      if (editable) expect(s.can({ type: 'message.edit', messageId: editable.id, text: 'Again', ...options })).toBe(false);
      expect(s.can({ type: 'messages.refresh' })).toBe(false);
      if (s.matches({ following: 'waiting' })) expect(s.children.loadRecent).toBeUndefined();
      if (s.matches({ following: 'fetching' })) {
        // Only the timer starts a poll (other events here are ignored); it does not count as an attempt yet.
        expect(e?.type === FOLLOW_AFTER || p!.matches({ following: 'fetching' })).toBe(true);
        expect(recentLoads.at(-1)).toEqual({ conversationId: c.conversationId });
        expect(c.followAttempts).toBe(p!.context.followAttempts);
      }
      if (e?.type === 'xstate.done.actor.loadMessages') {
        const output = (e as unknown as { output: ConversationMessages }).output;
        expect(c.messages).toEqual(output.messages);
        expect(c.title).toBe(output.conversation.title);
        expect(c.loadError).toBeNull();
        expect(c.followAttempts).toBe(0);
      }
      if (e?.type === 'xstate.done.actor.loadRecent') {
        const output = (e as unknown as { output: ConversationMessages }).output.messages;
        expect(c.messages.slice(-output.length)).toEqual(output);
        // One more poll that found it still written; a refresh that found it starts the count.
        expect(c.followAttempts).toBe(p!.matches('following') ? p!.context.followAttempts + 1 : 0);
      }
    }),
  },
});

// --- examples: exact emitted events and texts ---

function start(input: { conversationId: string | null }, machine = testMachine()) {
  sent = [];
  aborts = 0;
  const actor = createActor(machine, { input });
  const out: ChatSendEmitted[] = [];
  actor.on('*', (ev) => out.push(ev as ChatSendEmitted));
  actor.start();
  return { actor, out };
}

describe('chat-send (examples)', () => {
  it('keeps the contract texts and types', () => {
    expect(SEND_REQUEST_FAILED).toBe("Sorry, I couldn't process your request. Please try again.");
    expect(SEND_STREAM_FAILED).toBe('Sorry, I encountered an error while processing your request. Please try again.');
    expect(FETCH_MESSAGES_FAILED).toBe('Failed to fetch messages');
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
    expect(actor.getSnapshot().value).toBe('thinking');
    expect(aborts).toBe(0);
    actor.send({ type: 'stream.chunk', text: 'Hi ' });
    actor.send({ type: 'stream.chunk', text: 'there' });
    const live = actor.getSnapshot();
    expect(live.value).toBe('streaming');
    expect(live.context.messages.at(-1)!.content).toBe('');
    expect(displayedContent(live.context, live.context.messages.at(-1)!)).toBe('Hi there');
    expect(displayedContent(live.context, live.context.messages[0])).toBe('Hello');
    actor.send({ type: 'stream.done', messageId: 'a9', usage });
    const done = actor.getSnapshot();
    expect(done.value).toBe('idle');
    expect(done.context.messages.map((m) => [m.id, m.sender, m.content, m.status, m.conversation_id])).toEqual([
      ['u9', 'user', 'Hello', 'complete', 'c9'],
      ['a9', 'Assistant', 'Hi there', 'complete', 'c9'],
    ]);
    expect(out.at(-1)).toEqual({ type: 'exchange.completed', conversationId: 'c9', messageCount: 2 });
    expect(aborts).toBe(1);
  });

  it('a request failure and a stream failure show the two spec sentences; refresh repairs the list', () => {
    const { actor, out } = start({ conversationId: 'c1' });
    actor.send({ type: 'xstate.done.actor.loadMessages', output: loaded } as never);
    actor.send({ type: 'message.submit', text: 'To Penang', ...options });
    actor.send({ type: 'stream.failed', phase: 'request', detail: 'Network Error' });
    let s = actor.getSnapshot();
    expect(s.value).toBe('networkError');
    expect(s.context.networkError).toBe(true);
    expect(s.context.messages.at(-1)).toMatchObject({ content: "Sorry, I couldn't process your request. Please try again.", status: 'error' });

    actor.send({ type: 'message.submit', text: 'To Penang', ...options });
    actor.send({ type: 'stream.chunk', text: 'Pen' });
    actor.send({ type: 'stream.failed', phase: 'stream' });
    s = actor.getSnapshot();
    expect(s.context.messages.at(-1)!.content).toBe('Sorry, I encountered an error while processing your request. Please try again.');

    actor.send({ type: 'messages.refresh' });
    expect(actor.getSnapshot().hasTag('refreshing')).toBe(true);
    actor.send({ type: 'xstate.error.actor.loadRecent', error: new Error('timeout') } as never);
    expect(out.at(-1)).toEqual({ type: 'messages.refreshFailed', detail: 'timeout' });
    expect(actor.getSnapshot().value).toBe('networkError');

    actor.send({ type: 'messages.refresh' });
    actor.send({ type: 'xstate.done.actor.loadRecent', output: recent } as never);
    s = actor.getSnapshot();
    expect(out.at(-1)).toEqual({ type: 'messages.refreshed' });
    expect(s.value).toBe('idle');
    expect(s.context.networkError).toBe(false);
    expect(s.context.messages.map((m) => m.id)).toEqual(['u1', 'a1', 'u2', 'a2']);
  });

  it('server-reported errors: the error marker once, the unknown-error text shown, no exchange.completed', () => {
    const { actor, out } = start({ conversationId: 'c1' });
    actor.send({ type: 'xstate.done.actor.loadMessages', output: loaded } as never);
    actor.send({ type: 'message.submit', text: 'Long answer please', ...options });
    actor.send({ type: 'stream.chunk', text: 'Part one' });
    actor.send({ type: 'stream.error', errorType: 'max-tokens', message: 'Token limit reached' });
    let s = actor.getSnapshot();
    expect(s.value).toBe('idle');
    expect(s.context.messages.at(-1)).toMatchObject({ content: 'Part one\n\n:::error{type="max-tokens"}\nToken limit reached\n:::', status: 'error' });
    expect(s.context.networkError).toBe(false);
    expect(out).toEqual([]);

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
    expect(out).toEqual([]);
  });

  it('editing replaces the text, drops later messages and resends with message_id_to_edit', () => {
    const { actor } = start({ conversationId: 'c1' });
    actor.send({ type: 'xstate.done.actor.loadMessages', output: recent } as never);
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

  it('keeps the loaded conversation title for the header, and forgets it when another opens', () => {
    const { actor } = start({ conversationId: 'c1' });
    expect(actor.getSnapshot().context.title).toBeNull();
    actor.send({ type: 'xstate.done.actor.loadMessages', output: loaded } as never);
    expect(actor.getSnapshot().context.title).toBe(loaded.conversation.title);
    actor.send({ type: 'conversation.open', conversationId: null });
    expect(actor.getSnapshot().context.title).toBeNull();
  });

  it('a failed load sets the spec text and emits loadFailed; opening the same id again retries', () => {
    const { actor, out } = start({ conversationId: 'c1' });
    actor.send({ type: 'xstate.error.actor.loadMessages', error: new Error('500') } as never);
    expect(actor.getSnapshot().context.loadError).toBe('Failed to fetch messages');
    expect(out).toEqual([{ type: 'messages.loadFailed' }]);
    actor.send({ type: 'conversation.open', conversationId: 'c1' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.loadError).toBeNull();
  });

  it('selecting another conversation or a new chat aborts the send', () => {
    const { actor } = start({ conversationId: 'c1' });
    actor.send({ type: 'xstate.done.actor.loadMessages', output: loaded } as never);
    actor.send({ type: 'message.submit', text: 'Hi', ...options });
    actor.send({ type: 'conversation.open', conversationId: 'c2' });
    expect(aborts).toBe(1);
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.messages).toEqual([]);
    actor.send({ type: 'conversation.open', conversationId: null });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'message.submit', text: 'Hi', ...options });
    actor.send({ type: 'conversation.open', conversationId: null });
    expect(aborts).toBe(2);
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
            setTimeout(() => sendBack({ type: 'stream.done', messageId: 'a5', usage }), 4),
          ];
          return () => timers.forEach(clearTimeout);
        }),
      },
    });
    const { actor, out } = start({ conversationId: null }, machine);
    actor.send({ type: 'message.submit', text: 'Hi', ...options });
    await new Promise((r) => setTimeout(r, 30));
    expect(actor.getSnapshot().value).toBe('idle');
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
});

describe('chat-send (following a reply written elsewhere)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The model's fakes, with loadRecent answering from `next` (the real give-up bound unless `base` is given). */
  const following = (next: () => Promise<ConversationMessages>, base = chatSendMachine) => {
    const calls: string[] = [];
    const machine = testMachine(base).provide({
      actors: {
        loadRecent: fromPromise<ConversationMessages, { conversationId: string }>(({ input }) => {
          calls.push(input.conversationId);
          return next();
        }),
      },
    });
    return { machine, calls };
  };
  const queue = (answers: Array<ConversationMessages | Error>) => () => {
    const answer = answers.shift();
    if (answer === undefined) return new Promise<ConversationMessages>(() => {});
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  };
  const reply = (id: string, content: string, status: ChatMessage['status']): ChatMessage => ({ ...msg(id, 'Assistant', content), status });

  it('keeps the follow constants', () => {
    expect(FOLLOW_INTERVAL_MS).toBe(1000);
    expect(MAX_FOLLOW_ATTEMPTS).toBe(600);
  });

  it('a reload mid-reply follows it every second until complete; only a first exchange announces exchange.completed', async () => {
    vi.useFakeTimers();
    const { machine, calls } = following(
      queue([
        { conversation, messages: [msg('u1', 'user', 'Plan a trip'), reply('a1', 'Sure, let me', 'streaming')] },
        { conversation, messages: [msg('u1', 'user', 'Plan a trip'), reply('a1', 'Sure, let me plan it.', 'complete')] },
      ]),
    );
    const { actor, out } = start({ conversationId: 'c1' }, machine);
    actor.send({ type: 'xstate.done.actor.loadMessages', output: midReply2 } as never);
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
    expect(s.matches({ following: 'waiting' })).toBe(true);
    expect(s.context.messages.at(-1)).toMatchObject({ content: 'Sure, let me', status: 'streaming' });
    expect(out).toEqual([]);

    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS);
    s = actor.getSnapshot();
    expect(s.value).toBe('idle');
    expect(s.hasTag('busy')).toBe(false);
    expect(s.context.messages.map((m) => [m.id, m.content, m.status])).toEqual([
      ['u1', 'Plan a trip', 'complete'],
      ['a1', 'Sure, let me plan it.', 'complete'],
    ]);
    expect(out).toEqual([{ type: 'exchange.completed', conversationId: 'c1', messageCount: 2 }]);
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS * 5);
    expect(calls.length).toBe(2);

    // A later exchange completing elsewhere is not a first exchange: nothing is emitted.
    const later = following(queue([{ conversation, messages: [msg('u2', 'user', 'To Penang'), reply('a2', 'Penang it is.', 'complete')] }]));
    const second = start({ conversationId: 'c1' }, later.machine);
    second.actor.send({ type: 'xstate.done.actor.loadMessages', output: midReply4 } as never);
    expect(second.actor.getSnapshot().matches('following')).toBe(true);
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS);
    expect(second.actor.getSnapshot().value).toBe('idle');
    expect(second.actor.getSnapshot().context.messages.map((m) => m.id)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(second.out).toEqual([]);
  });

  it('a failed poll sets the network error flag and leaves the reply as loaded; Refresh follows it again', async () => {
    vi.useFakeTimers();
    const { machine, calls } = following(
      queue([
        new Error('Network Error'),
        recentMidReply,
        { conversation, messages: [msg('u2', 'user', 'To Penang'), reply('a2', 'Penang it is.', 'complete')] },
      ]),
    );
    const { actor, out } = start({ conversationId: 'c1' }, machine);
    actor.send({ type: 'xstate.done.actor.loadMessages', output: midReply4 } as never);
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS);
    let s = actor.getSnapshot();
    expect(s.value).toBe('networkError');
    expect(s.context.networkError).toBe(true);
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
    expect(s.context.networkError).toBe(false);
    expect(out).toEqual([{ type: 'messages.refreshed' }]);
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS);
    s = actor.getSnapshot();
    expect(s.value).toBe('idle');
    expect(s.context.messages.at(-1)).toMatchObject({ id: 'a2', content: 'Penang it is.', status: 'complete' });
    expect(calls.length).toBe(3);
    expect(out).toEqual([{ type: 'messages.refreshed' }]);
  });

  it('opening another conversation or a new chat stops the timer and the poll', async () => {
    vi.useFakeTimers();
    let resolvePoll: (value: ConversationMessages) => void = () => {};
    const { machine, calls } = following(() => new Promise((resolve) => (resolvePoll = resolve)));
    const { actor, out } = start({ conversationId: 'c1' }, machine);

    // While waiting: the timer is cancelled.
    actor.send({ type: 'xstate.done.actor.loadMessages', output: midReply2 } as never);
    actor.send({ type: 'conversation.open', conversationId: 'c2' });
    expect(actor.getSnapshot().value).toBe('loading');
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS * 10);
    expect(calls).toEqual([]);

    // While fetching: the request is stopped and its late answer ignored.
    actor.send({ type: 'xstate.done.actor.loadMessages', output: { ...midReply2, conversation: { ...conversation, id: 'c2' } } } as never);
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS);
    expect(calls).toEqual(['c2']);
    expect(actor.getSnapshot().children.loadRecent).toBeDefined();
    actor.send({ type: 'conversation.open', conversationId: null });
    let s = actor.getSnapshot();
    expect(s.value).toBe('idle');
    expect(s.children.loadRecent).toBeUndefined();
    resolvePoll({ conversation, messages: [msg('u1', 'user', 'Plan a trip'), reply('a1', 'Done.', 'complete')] });
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS * 10);
    s = actor.getSnapshot();
    expect(s.value).toBe('idle');
    expect(s.context.messages).toEqual([]);
    expect(s.context.conversationId).toBeNull();
    expect(calls).toEqual(['c2']);
    expect(out).toEqual([]);
  });

  it(`gives up after ${MAX_FOLLOW_ATTEMPTS} polls (ten minutes), leaving the reply as loaded`, async () => {
    vi.useFakeTimers();
    const still = { conversation, messages: [msg('u1', 'user', 'Plan a trip'), reply('a1', 'Still writing', 'streaming')] };
    const { machine, calls } = following(() => Promise.resolve(still));
    const { actor, out } = start({ conversationId: 'c1' }, machine);
    actor.send({ type: 'xstate.done.actor.loadMessages', output: midReply2 } as never);
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS * (MAX_FOLLOW_ATTEMPTS - 1));
    expect(calls.length).toBe(MAX_FOLLOW_ATTEMPTS - 1);
    expect(actor.getSnapshot().context.followAttempts).toBe(MAX_FOLLOW_ATTEMPTS - 1);
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS);
    const s = actor.getSnapshot();
    expect(calls.length).toBe(MAX_FOLLOW_ATTEMPTS);
    expect(s.value).toBe('idle');
    expect(s.context.messages).toEqual(still.messages);
    expect(s.context.followAttempts).toBe(0);
    expect(out).toEqual([]);
    await vi.advanceTimersByTimeAsync(FOLLOW_INTERVAL_MS * 10);
    expect(calls.length).toBe(MAX_FOLLOW_ATTEMPTS);
  });
});
