import { describe, expect, expectTypeOf, it } from 'vitest';
import { createActor, fromCallback, fromPromise, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import {
  chatSendMachine,
  displayedContent,
  FETCH_MESSAGES_FAILED,
  SEND_REQUEST_FAILED,
  SEND_STREAM_FAILED,
  streamErrorContent,
  type ChatSendEmitted,
  type ChatSendEvent,
  type SendMessageInput,
} from '../../machines/chat-send.machine';
import { UNKNOWN_STREAM_ERROR, type ChatMessage, type ConversationMessages, type SendMessageRequest, type Usage } from '../../contract/chat';
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
const usage: Usage = { prompt_tokens: 12, completion_tokens: 34 };
const options = { browsing: false, imageGeneration: false, reasoningEffort: 'low' as const };

// --- fakes and what they saw (one live actor at a time) ---
let sent: SendMessageInput[] = [];
let aborts = 0;
let loads: Array<{ conversationId: string }> = [];
let recentLoads: Array<{ conversationId: string }> = [];
let emitted: ChatSendEmitted[] = [];

const testMachine = () =>
  chatSendMachine.provide({
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
  const value = s.value as string;
  switch (value) {
    case 'loading':
      return [
        ...open,
        { type: 'xstate.done.actor.loadMessages', output: loaded } as never,
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
const busy = (s: Snap | null) => Boolean(s && (s.matches('thinking') || s.matches('streaming')));

function common(s: Snap, e: { type: string } | null) {
  const c = s.context;
  const fresh = emitted.slice(emittedSeen);
  emittedSeen = emitted.length;
  const newAborts = aborts - abortsSeen;
  abortsSeen = aborts;

  // Tags are exactly the documented ones.
  expect(s.hasTag('busy')).toBe(s.matches('thinking') || s.matches('streaming'));
  expect(s.hasTag('thinking')).toBe(s.matches('thinking'));
  expect(s.hasTag('streaming')).toBe(s.matches('streaming'));
  expect(s.hasTag('loading')).toBe(s.matches('loading'));
  expect(s.hasTag('error')).toBe(s.matches('networkError'));
  expect(s.hasTag('refreshing')).toBe(s.matches('refreshing'));

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

  // Message ids are unique; only the pending reply is 'streaming'.
  expect(new Set(c.messages.map((m) => m.id)).size).toBe(c.messages.length);
  const streamingOnes = c.messages.filter((m) => m.status === 'streaming');
  if (busy(s)) {
    expect(s.children.sendMessage).toBeDefined();
    const last = c.messages.at(-1)!;
    expect(streamingOnes).toEqual([last]);
    expect(last).toMatchObject({ sender: 'Assistant', status: 'streaming', content: '', id: c.streamingMessageId });
    expect(c.messages.at(-2)?.sender).toBe('user');
    expect(sent.at(-1)).toEqual(c.lastRequest);
  } else {
    // Leaving thinking/streaming always stops the request.
    expect(s.children.sendMessage).toBeUndefined();
    expect(streamingOnes).toEqual([]);
    expect(c.streamingMessageId).toBeNull();
    expect(c.streamingText).toBe('');
  }
  if (busy(prev) && !busy(s)) expect(newAborts).toBe(1);
  else expect(newAborts).toBe(0);

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
  if (e?.type === 'xstate.done.actor.loadRecent') expected.push({ type: 'messages.refreshed' });
  if (e?.type === 'xstate.error.actor.loadRecent') expected.push({ type: 'messages.refreshFailed', detail: 'Network Error' });
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
  machine: chatSendMachine,
  testMachine,
  onActor: (actor) => {
    sent = [];
    aborts = 0;
    loads = [];
    recentLoads = [];
    emitted = [];
    prev = null;
    emittedSeen = 0;
    abortsSeen = 0;
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
        // Everything from a1 on replaced by the recent messages; nothing before it was touched.
        const i = c.messages.findIndex((m) => m.id === 'a1');
        if (i >= 0) expect(c.messages.slice(i)).toEqual(recent.messages);
        else expect(c.messages).toEqual(recent.messages);
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
      const failed = c.messages.filter((m) => m.status === 'error' && m.sender === 'Assistant');
      expect(failed.length).toBeGreaterThan(0);
      expect([SEND_REQUEST_FAILED, SEND_STREAM_FAILED]).toContain(failed.at(-1)!.content);
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
