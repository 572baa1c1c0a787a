import { streamStatus, type StreamStatus } from '../../../contract/chat-stream';
/** One server-sent event as the EventSource spec assembles it. */
export interface SseEvent {
  /** 'message' when the event had no `event:` field. */
  event: string;
  data: string;
}

/**
 * Parses a text/event-stream body as it arrives (EventSource rules: `field: value` lines, a blank line ends
 * an event, `:` lines are comments, several `data:` lines join with newlines).
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      buffer += decoder.decode(read.value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
    }
  } finally {
    // Stopping early (a test leaving mid-stream) cancels the body, which closes the connection.
    await reader.cancel().catch(() => undefined);
  }
}

export async function collectSse(response: Response): Promise<SseEvent[]> {
  if (!response.body) throw new Error('response has no body');
  const events: SseEvent[] = [];
  for await (const e of readSse(response.body)) events.push(e);
  return events;
}

/** A reply stream taken apart along the chat protocol (ARCHITECTURE.md), checking its order on the way. */
export interface ReplyStream {
  control: { conversation_id: string; message_id: string; user_message_id: string };
  deltas: string[];
  text: string;
  errors: { type: string; message: string }[];
  /** `event: status` records (a tool at work before the text), in order. */
  statuses: StreamStatus[];
  done: { message_id: string; usage: { prompt_tokens: number; completion_tokens: number }; stopped: boolean };
  /** Event names in order ('message' for data-only events). */
  order: string[];
}

export function parseReplyStream(events: SseEvent[]): ReplyStream {
  const [first, ...rest] = events;
  if (!first || first.event !== 'message') throw new Error(`the first event is not the control record: ${JSON.stringify(first)}`);
  const last = rest.at(-1);
  if (!last || last.event !== 'done') throw new Error(`the last event is not done: ${JSON.stringify(last)}`);
  const deltas: string[] = [];
  const errors: ReplyStream['errors'] = [];
  const statuses: StreamStatus[] = [];
  for (const e of rest.slice(0, -1)) {
    if (e.event === 'message') deltas.push(JSON.parse(e.data) as string);
    else if (e.event === 'error') errors.push(JSON.parse(e.data) as ReplyStream['errors'][number]);
    else if (e.event === 'status' && deltas.length === 0) statuses.push(streamStatus.parse(JSON.parse(e.data)));
    else throw new Error(`unexpected event ${e.event}${e.event === 'status' ? ' after text' : ''}`);
  }
  return {
    control: JSON.parse(first.data) as ReplyStream['control'],
    deltas,
    text: deltas.join(''),
    errors,
    statuses,
    done: JSON.parse(last.data) as ReplyStream['done'],
    order: events.map((e) => e.event),
  };
}
