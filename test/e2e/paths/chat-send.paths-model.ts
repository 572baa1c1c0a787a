import type { SnapshotFrom } from 'xstate';
import { chatSendMachine } from '../../../machines/chat-send.machine';
import { hasStreamingReply } from '../../../machines/follow-reply.machine';
import type { ChatMessage, ConversationMessages } from '../../../contract/chat';
import { FAIR_USE_EXCEEDED, FAIR_USE_EXCEEDED_CODE } from '../../../contract/chat-constants';
import { asSteps, coveringPaths, maximalPaths, valueName, type Step } from './paths-support';
import type { LeftOut } from '../../model/support/model-paths';

type Snap = SnapshotFrom<typeof chatSendMachine>;

/**
 * Model conversation ids, each standing for one the browser test has in hand:
 * - OTHER: a finished conversation the test made before the path starts (opened from the list);
 * - MID_REPLY: a conversation whose first reply is still being written when the page opens it (a reload);
 * - `new-N`: the conversation a question on the new-chat screen creates (its id comes with the control record);
 * - LONG: a conversation of more than a page of messages made before the path starts (test/e2e/helpers/seed.ts): it opens on its latest page and the reader scrolls up for the one before;
 * - GONE: a link to a conversation the server does not have (a person follows a wrong or stale link).
 */
export const OTHER = 'other';
export const MID_REPLY = 'mid-reply';
export const LONG = 'long';
export const GONE = 'gone';

const at = '2025-01-01T10:00:00.000Z';
const msg = (id: string, conversation_id: string, sender: ChatMessage['sender'], status: ChatMessage['status'] = 'complete'): ChatMessage => ({
  id, conversation_id, content: sender === 'user' ? 'Question' : 'Answer', sender, status, created_at: at, stopped: false,
});
const conversationOf = (id: string, streaming: boolean): ConversationMessages => ({
  conversation: { id, title: 'Title', created_at: at, updated_at: at },
  messages: [msg(`${id}-u1`, id, 'user'), msg(`${id}-a1`, id, 'Assistant', streaming ? 'streaming' : 'complete')],
  earlier_cursor: id === LONG ? `${id}-earlier` : null,
});
/** The page before LONG's latest one: its first messages. */
const earlierOf = (id: string): ConversationMessages => ({
  conversation: { id, title: 'Title', created_at: at, updated_at: at },
  messages: [msg(`${id}-u0`, id, 'user'), msg(`${id}-a0`, id, 'Assistant')],
  earlier_cursor: null,
});
const options = { browsing: false, imageGeneration: false, reasoningEffort: 'low' as const };
/** The followed reply's text as its own stream gives it (`follow.text`). */
export const FOLLOWED = 'Answer so far';
/**
 * The messages as the server has them (none of those that never reached it), the last (the reply) still being
 * written or saved whole.
 */
const withReply = (c: Snap['context'], status: ChatMessage['status'], content = 'Answer'): ConversationMessages => {
  const saved = c.messages.filter((m) => !m.id.startsWith('temp-'));
  return {
    conversation: { id: c.conversationId!, title: 'Title', created_at: at, updated_at: at },
    messages: saved.map((m, i) => (i === saved.length - 1 ? { ...m, status, content } : m)),
    earlier_cursor: null,
  };
};
/** Server ids are unique per generated event (the generator reuses one stored snapshot per key). */
let serverIds = 0;

/** The conversation ends with a saved question and its saved, finished reply: Regenerate is offered. */
const endsWithSavedReply = (messages: ChatMessage[]) => {
  const [question, reply] = messages.slice(-2);
  return Boolean(question && reply && question.sender === 'user' && reply.sender === 'Assistant' && reply.status !== 'streaming' && !reply.id.startsWith('temp-') && !question.id.startsWith('temp-'));
};

function eventsFor(s: Snap): Step[] {
  const c = s.context;
  const id = c.conversationId;
  const open: Step[] = [
    ...(id !== null ? [{ type: 'conversation.open', conversationId: null }] : []),
    ...(id !== OTHER ? [{ type: 'conversation.open', conversationId: OTHER }] : []),
  ];
  switch (valueName(s.value)) {
    case 'loading':
      if (id === GONE) return [{ type: 'xstate.error.actor.loadMessages', error: { notFound: true }, actorId: 'loadMessages' }];
      return [
        { type: 'xstate.done.actor.loadMessages', output: conversationOf(id!, id === MID_REPLY), actorId: 'loadMessages' },
        { type: 'xstate.error.actor.loadMessages', error: new Error('500'), actorId: 'loadMessages' },
      ];
    case 'notFound':
      return [{ type: 'conversation.open', conversationId: null }];
    case 'idle': {
      if (c.loadError) return [{ type: 'conversation.open', conversationId: null }];
      // The long conversation only scrolls up (its page, then nothing more: the path ends there).
      if (id === LONG) {
        if (c.loadingEarlier !== null) {
          return [
            { type: 'xstate.done.actor.loadEarlier', output: earlierOf(id), actorId: 'loadEarlier' },
            { type: 'xstate.error.actor.loadEarlier', error: new Error('500'), actorId: 'loadEarlier' },
          ];
        }
        return c.earlierCursor !== null ? [{ type: 'messages.loadEarlier' }] : [];
      }
      // A stop answered after the reply ended (the server answers it once the reply is saved).
      if (c.stoppingMessageId !== null) return [{ type: 'xstate.done.actor.stopReply', output: { message_id: c.stoppingMessageId, stopped: true }, actorId: 'stopReply' }];
      // A refused question (the month's fair use) ends the path: the rest was seen from a new chat already.
      if (c.messages.at(-1)?.content === FAIR_USE_EXCEEDED) return [];
      const saved = c.messages.find((m) => m.sender === 'user' && !m.id.startsWith('temp-'));
      return [
        { type: 'message.submit', text: 'Question', ...options },
        // With web browsing, on the new-chat screen only: enough to reach what the reply says while the web is searched.
        ...(id === null ? [{ type: 'message.submit', text: 'Web question', ...options, browsing: true }] : []),
        ...(endsWithSavedReply(c.messages) ? [{ type: 'message.regenerate', ...options }] : []),
        ...(saved ? [{ type: 'message.edit', messageId: saved.id, text: 'Edited', ...options }] : []),
        ...open,
        // Opened from a new chat only: enough to reach its transitions.
        ...(id === null ? [{ type: 'conversation.open', conversationId: LONG }] : []),
      ];
    }
    case 'replying.thinking': {
      serverIds += 1;
      // The control record comes first, then the words; the request failing comes before either.
      if (c.streamingMessageId?.startsWith('temp-')) {
        return [
          { type: 'stream.control', conversationId: id ?? `new-${serverIds}`, messageId: `a-${serverIds}`, userMessageId: `u-${serverIds}` },
          { type: 'stream.failed', phase: 'request', detail: 'Network Error' },
          // Refused for the month's fair use: only a new chat's first question (enough to reach it).
          ...(id === null ? [{ type: 'stream.failed', phase: 'request', detail: FAIR_USE_EXCEEDED, code: FAIR_USE_EXCEEDED_CODE }] : []),
        ];
      }
      // A browsing reply says first that the web is being searched (the server's status), then its words come.
      if (c.lastRequest?.browsing && c.replyActivity === null) return [{ type: 'stream.status', activity: 'searching_web' }];
      return [
        { type: 'stream.chunk', text: 'Answer' },
        // The stream cut after its control record (the server goes on writing the reply); in a new chat's
        // conversation only, enough to reach what follows.
        ...(kind(id) === 'new' ? [{ type: 'stream.failed', phase: 'stream', detail: 'network error' }] : []),
      ];
    }
    case 'replying.streaming': {
      const stopping = c.stoppingMessageId !== null;
      // More words: once per reply (the key leaves the text out, so a second chunk is the same state).
      if (c.streamingText === 'Answer') return [{ type: 'stream.chunk', text: ' more' }];
      return [
        { type: 'stream.done', messageId: c.streamingMessageId, usage: { prompt_tokens: 1, completion_tokens: 1 }, stopped: stopping },
        // Stopped in the middle of the reply (the Stop button takes Send's place once the reply has its id).
        ...(stopping ? [] : [{ type: 'reply.stop' }]),
        // The stop refused: said at once, and the reply goes on to its end.
        ...(stopping ? [{ type: 'xstate.error.actor.stopReply', error: new Error('500'), actorId: 'stopReply' }] : []),
      ];
    }
    case 'networkError': {
      const saved = c.messages.find((m) => m.sender === 'user' && !m.id.startsWith('temp-'));
      return [
        ...(id !== null ? [{ type: 'messages.refresh' }] : []),
        { type: 'message.submit', text: 'Again', ...options },
        ...(saved ? [{ type: 'message.edit', messageId: saved.id, text: 'Edited', ...options }] : []),
        // The stream was cut after its control record: question and reply have their ids, so they can be asked again.
        ...(endsWithSavedReply(c.messages) ? [{ type: 'message.regenerate', ...options }] : []),
      ];
    }
    case 'refreshing':
      // After a stream cut after its control record, the server is still writing the reply: it is followed.
      if (endsWithSavedReply(c.messages)) {
        return [
          { type: 'xstate.done.actor.loadRecent', output: withReply(c, 'streaming'), actorId: 'loadRecent' },
          { type: 'xstate.error.actor.loadRecent', error: new Error('500'), actorId: 'loadRecent' },
        ];
      }
      return [
        { type: 'xstate.done.actor.loadRecent', output: conversationOf(id!, false), actorId: 'loadRecent' },
        // The server answering no messages at all: nothing to repair with (forced with a stub).
        { type: 'xstate.done.actor.loadRecent', output: { ...conversationOf(id!, false), messages: [] }, actorId: 'loadRecent' },
        { type: 'xstate.error.actor.loadRecent', error: new Error('500'), actorId: 'loadRecent' },
      ];
    case 'following': {
      const finished = { status: 'finished', value: withReply(c, 'complete'), error: null, attempts: 1 };
      // The saved reply was read: following ends.
      if (!hasStreamingReply(c.messages)) return [{ type: 'xstate.done.actor.follow', output: finished, actorId: 'follow' }];
      const reply = c.messages.at(-1)!;
      // The stream said done (or a check found the reply saved): the saved reply is read.
      const saved = { type: 'poll.progress', value: withReply(c, 'complete') };
      if (c.stoppingMessageId !== null) return [saved];
      // Stop, once the reply's own stream gave its text so far.
      if (reply.content === FOLLOWED) return [{ type: 'reply.stop' }, saved];
      return [
        { type: 'follow.text', messageId: reply.id, text: FOLLOWED },
        saved,
        // The stream unreadable and the checks failing (the follow stops at a failed check): following failed.
        { type: 'xstate.done.actor.follow', output: { status: 'failed', value: undefined, error: new Error('Request failed with status code 500'), attempts: 1 }, actorId: 'follow' },
      ];
    }
    default:
      return [];
  }
}


const kind = (id: string | null) => (id === null ? 'none' : id.startsWith('new-') ? 'new' : id);

export { chatSendMachine };
export const chatSendPaths = asSteps<{ conversationId: string | null }>(coveringPaths(chatSendMachine, maximalPaths({
  machine: chatSendMachine,
  inputs: [{ conversationId: null }, { conversationId: MID_REPLY }, { conversationId: GONE }],
  events: eventsFor as never,
  // What the events offered depend on: which conversation, a saved question to edit, the control record seen, a failed load.
  key: (s) =>
    JSON.stringify([
      s.value,
      kind(s.context.conversationId),
      s.context.messages.some((m) => m.sender === 'user' && !m.id.startsWith('temp-')),
      s.context.streamingMessageId?.startsWith('temp-') ?? null,
      s.context.loadError !== null,
      s.context.earlierCursor !== null,
      s.context.loadingEarlier !== null,
      s.context.stoppingMessageId !== null,
      endsWithSavedReply(s.context.messages),
      s.context.lastRequest?.browsing ?? false,
      s.context.replyActivity !== null,
      s.context.streamingText.length > 'Answer'.length,
      s.context.messages.at(-1)?.content === FAIR_USE_EXCEEDED,
      hasStreamingReply(s.context.messages),
      s.context.messages.at(-1)?.content === FOLLOWED,
      // A followed reply ends differently in a conversation's first exchange (the title is polled for then).
      s.context.messages.length > 2,
    ]),
  simpleKey: (s) => JSON.stringify([s.value, kind(s.context.conversationId)]),
  // One path per edge: a send from a failure arrives where a send from idle does.
  edgeKeys: true,
})));

/** What no browser can cause (test/e2e/paths/coverage.ts counts the rest); the model test covers them. */
export const chatSendUnforceable: LeftOut[] = [
  {
    why: 'the send actor failing itself: it catches every failure and reports it as stream.failed',
    transitions: [
      'chatSend.replying.thinking --xstate.error.actor.sendMessage#2--> chatSend.networkError',
      'chatSend.replying.streaming --xstate.error.actor.sendMessage#1--> chatSend.networkError',
    ],
  },
  {
    why: 'the follow child failing itself: it catches every failure and ends with its output',
    transitions: ['chatSend.following --xstate.error.actor.follow#6--> chatSend.networkError'],
  },
  {
    why: 'done before any conversation: the server sends its control record first',
    transitions: ['chatSend.replying --stream.done#3--> chatSend.idle'],
  },
  {
    why: "the server's error record: sent only when the model itself fails (the server tests cover it)",
    transitions: ['chatSend.replying --stream.error#4--> chatSend.idle', 'chatSend.replying --stream.error#5--> chatSend.idle'],
  },
];
