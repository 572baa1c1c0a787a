import { fromCallback, type EventObject } from 'xstate';
import type { SendMessageInput, SendMessageStreamEvent } from '../../../machines/chat-send.machine';
import { StreamFailure, type streamMessage } from '../../api/chat-stream';

export interface SendMessageApi {
  streamMessage: typeof streamMessage;
}

/**
 * The chat-send machine's `sendMessage` slot: POSTs the message, turns the event stream into stream.* events,
 * and aborts the request when the machine stops it (the machine leaves `replying`: the reply ended, a new chat,
 * another conversation, the screen closed).
 */
export function defineSendMessageActor({ api }: { api: SendMessageApi }) {
  return fromCallback<EventObject, SendMessageInput>(({ input, sendBack }) => {
    const controller = new AbortController();
    const back = (event: SendMessageStreamEvent) => {
      if (!controller.signal.aborted) sendBack(event);
    };
    api
      .streamMessage(
        { ...input, sender: 'user' },
        {
          onControl: (c) => back({ type: 'stream.control', conversationId: c.conversation_id, messageId: c.message_id, userMessageId: c.user_message_id }),
          onStatus: (status) => back({ type: 'stream.status', activity: status.activity }),
          onChunk: (text) => back({ type: 'stream.chunk', text }),
          onError: (e) => back({ type: 'stream.error', errorType: e.type, message: e.message }),
          onDone: (d) => back({ type: 'stream.done', messageId: d.message_id, usage: d.usage, stopped: d.stopped }),
        },
        { signal: controller.signal },
      )
      .catch((error: unknown) => {
        const failure = error instanceof StreamFailure ? error : new StreamFailure('request', 'Network Error');
        // The server's own sentence (busy, too many messages, 'Message not found' for an edit of a message that is
        // gone, ...) is worth showing; a dropped connection's is not.
        back({ type: 'stream.failed', phase: failure.phase, detail: failure.status ? failure.detail : undefined, code: failure.code });
      });
    return () => controller.abort();
  });
}
