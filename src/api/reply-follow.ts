import { fetchEventSource, type EventSourceMessage } from '@microsoft/fetch-event-source';
import { paths } from '../../contract/api-paths';
import { accessToken, API_BASE } from './http';

export interface FollowHandlers {
  /** A piece of the reply's text, in order (the first is the text so far). */
  onChunk(text: string): void;
}

export interface FollowOptions {
  signal: AbortSignal;
  /** Overrides for tests. */
  baseURL?: string;
  getToken?: () => string | null;
  fetch?: typeof fetch;
}

/**
 * GET /chat/messages/{id}/stream: a reply written elsewhere, read as it grows. Resolves 'done' when the server says
 * the reply is complete, 'ended' when the stream ends without that (nothing to follow there: the caller reads the
 * conversation instead); rejects when it cannot be read at all (refused, 409 when the reply has just ended, the
 * network). Never retried by itself: the caller's poll takes over. An aborted signal resolves 'ended' quietly.
 */
export async function followReply(messageId: string, handlers: FollowHandlers, options: FollowOptions): Promise<'done' | 'ended'> {
  const url = `${options.baseURL ?? API_BASE}${paths.messageStream.replace(':id', encodeURIComponent(messageId))}?t=${Date.now()}`;
  const token = (options.getToken ?? accessToken)();
  let done = false;
  try {
    await fetchEventSource(url, {
      method: 'GET',
      signal: options.signal,
      fetch: options.fetch,
      openWhenHidden: true,
      headers: { Accept: 'text/event-stream', 'Cache-Control': 'no-store', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      async onopen(response) {
        if (!response.ok || !response.headers.get('content-type')?.includes('text/event-stream')) {
          throw new Error(`follow refused (HTTP ${response.status})`);
        }
      },
      onmessage(message: EventSourceMessage) {
        if (message.event === 'done') done = true;
        // Text deltas only: errors arrive as markers in the text too, and the saved reply is read at the end.
        if (!message.data || (message.event !== '' && message.event !== 'message')) return;
        const text: unknown = JSON.parse(message.data);
        if (typeof text === 'string') handlers.onChunk(text);
      },
      onclose() {},
      onerror(error: unknown) {
        // Rethrowing stops the library's own retry: the caller's poll is the retry.
        throw error;
      },
    });
  } catch (error) {
    if (options.signal.aborted) return 'ended';
    throw error;
  }
  return done ? 'done' : 'ended';
}
