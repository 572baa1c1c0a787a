import type { StreamDone, StreamError, StreamStatus } from '../../contract/chat-stream';

/** What a reply being written publishes, after the control record (which the sending request writes itself). */
export type ReplyEvent =
  | { type: 'status'; status: StreamStatus }
  | { type: 'delta'; text: string }
  | { type: 'error'; error: StreamError }
  | { type: 'done'; done: StreamDone };

export interface ReplySubscriber {
  onEvent(event: ReplyEvent): void;
  /** After the last event; also right away for a stream that is unknown or long gone. */
  onEnd(): void;
}

/**
 * Carries a reply from the task writing it to whoever is listening. The generation never depends on a
 * listener: a client that goes away just unsubscribes. The in-memory hub serves one instance; a Redis
 * implementation (a stream per reply) lets a client follow a reply written on another instance.
 */
export interface StreamHub {
  open(streamId: string): void;
  publish(streamId: string, event: ReplyEvent): void;
  /** No more events; the stream is kept a little longer for late subscribers. */
  close(streamId: string): void;
  /**
   * Replays what was published so far (the text so far may come as one delta), then follows live. Returns the
   * unsubscribe function.
   */
  subscribe(streamId: string, subscriber: ReplySubscriber): () => void;
}

interface Channel {
  /** What a late subscriber is replayed: consecutive deltas kept as one (the same text, few objects to hold). */
  events: ReplyEvent[];
  subscribers: Set<ReplySubscriber>;
  closed: boolean;
}

/** How long a finished reply stays replayable (a client reconnecting right after the end). */
export const RETENTION_MS = 60_000;

/** The in-memory hub, which can also say whether a reply is written by this process (the Redis hub asks). */
export interface MemoryStreamHub extends StreamHub {
  /** True while the reply is open here, or finished here within the retention. */
  has(streamId: string): boolean;
}

export function createMemoryStreamHub(): MemoryStreamHub {
  const channels = new Map<string, Channel>();
  return {
    has: (streamId) => channels.has(streamId),
    open(streamId) {
      channels.set(streamId, { events: [], subscribers: new Set(), closed: false });
    },
    publish(streamId, event) {
      const channel = channels.get(streamId);
      if (!channel || channel.closed) return;
      const last = channel.events.at(-1);
      // A thousand replies streaming (and each kept a minute after its end) would otherwise hold an object per
      // word: memory, and garbage-collection pauses that hold up every other request.
      if (event.type === 'delta' && last?.type === 'delta') channel.events[channel.events.length - 1] = { type: 'delta', text: last.text + event.text };
      else channel.events.push(event);
      for (const s of channel.subscribers) safely(() => s.onEvent(event));
    },
    close(streamId) {
      const channel = channels.get(streamId);
      if (!channel || channel.closed) return;
      channel.closed = true;
      for (const s of channel.subscribers) safely(() => s.onEnd());
      channel.subscribers.clear();
      setTimeout(() => {
        if (channels.get(streamId) === channel) channels.delete(streamId);
      }, RETENTION_MS).unref();
    },
    subscribe(streamId, subscriber) {
      const channel = channels.get(streamId);
      for (const event of channel?.events ?? []) subscriber.onEvent(event);
      if (!channel || channel.closed) {
        subscriber.onEnd();
        return () => undefined;
      }
      channel.subscribers.add(subscriber);
      return () => channel.subscribers.delete(subscriber);
    },
  };
}

/** A failing listener (a socket torn down mid-write) must not break the reply being written. */
function safely(deliver: () => void): void {
  try {
    deliver();
  } catch {
    // The listener's own cleanup (its close handler) unsubscribes it.
  }
}
