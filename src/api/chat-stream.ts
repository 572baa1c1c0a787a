import { fetchEventSource, type EventSourceMessage } from '@microsoft/fetch-event-source';
import { paths } from '../../contract/api-paths';
import type { z } from 'zod';
import type { SendMessageRequest } from '../../contract/chat';
import type { StreamControl, StreamDone, StreamError, StreamStatus } from '../../contract/chat-stream';
import { accessToken, api, API_BASE } from './http';

export interface StreamHandlers {
  onControl(control: StreamControl): void;
  /** What the server is doing before the reply's text (searching the web). */
  onStatus(status: StreamStatus): void;
  onChunk(text: string): void;
  onError(error: StreamError): void;
  onDone(done: StreamDone): void;
}

/** Where a send failed: before the answer started (nothing streamed) or in the middle of it. */
export class StreamFailure extends Error {
  constructor(
    readonly phase: 'request' | 'stream',
    readonly detail: string,
    readonly status = 0,
    /** The error envelope's `code`, when the server refused the request with one (e.g. fair_use_exceeded). */
    readonly code?: string,
  ) {
    super(detail);
    this.name = 'StreamFailure';
  }
}

class Unauthorized extends Error {}

/** A record that does not match its contract schema: the stream cannot be trusted any further. */
export const MALFORMED_RECORD = 'The server sent a malformed stream record';

/**
 * The records' schemas, and zod with them, load with the first send (or once the screen has settled, see
 * preloadStreamRecords), not with the chat screen: building zod and contract/chat.ts's schemas was about 20 ms of
 * opening a conversation, which reads no stream.
 */
const loadRecordSchemas = () => import('../../contract/chat-stream');

/** Loads the record schemas ahead of the first send. */
export function preloadStreamRecords(): void {
  void loadRecordSchemas();
}

/** The record's JSON value; undefined when it is not JSON. */
function safeJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/** One record's JSON, checked against its contract schema; anything else is a StreamFailure, never a crash. */
function parseRecord<T>(schema: z.ZodType<T>, data: string, phase: 'request' | 'stream'): T {
  const json = safeJson(data);
  if (json === undefined) throw new StreamFailure(phase, MALFORMED_RECORD);
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new StreamFailure(phase, MALFORMED_RECORD);
  return parsed.data;
}

/** Spec: after a refresh the original call is retried once after 1 second. */
const RETRY_DELAY_MS = 1000;

export interface StreamOptions {
  signal: AbortSignal;
  /** Overrides for tests: base URL, token, refresh, fetch, clock (the `t` query). */
  baseURL?: string;
  getToken?: () => string | null;
  refresh?: () => Promise<boolean>;
  fetch?: typeof fetch;
  now?: () => number;
}

async function refusal(response: Response): Promise<StreamFailure> {
  let detail = response.statusText || `HTTP ${response.status}`;
  let code: string | undefined;
  try {
    const body = (await response.json()) as { detail?: unknown; message?: unknown; code?: unknown };
    if (typeof body.detail === 'string') detail = body.detail;
    else if (typeof body.message === 'string') detail = body.message;
    if (typeof body.code === 'string') code = body.code;
  } catch {
    // not JSON: the status line says it
  }
  return new StreamFailure('request', detail, response.status, code);
}

/**
 * POST /chat/messages and read its event stream (ARCHITECTURE.md protocol): the control record first, then
 * JSON-encoded text deltas, then `done`, or `error`. Every record is checked against its contract schema
 * (contract/chat-stream.ts); a malformed one is a StreamFailure ('request' before the control record, 'stream' after).
 * Like every other call (src/api/client.ts) it carries the `t` timestamp query, new on each request. A 401
 * before anything streamed refreshes the session once and repeats the request; the spec asks for exactly that.
 * Resolves when `done` arrives; rejects with a StreamFailure otherwise (an aborted signal resolves quietly: the
 * person moved on).
 */
export async function streamMessage(body: SendMessageRequest, handlers: StreamHandlers, options: StreamOptions): Promise<void> {
  const endpoint = `${options.baseURL ?? API_BASE}${paths.messages}`;
  const getToken = options.getToken ?? accessToken;
  const refresh = options.refresh ?? api.refreshOnce;
  const now = options.now ?? Date.now;
  const { streamControl, streamDone, streamError, streamStatus, streamText } = await loadRecordSchemas();

  const attempt = async () => {
    let started = false;
    let finished = false;
    const token = getToken();
    const url = `${endpoint}?t=${now()}`;
    await fetchEventSource(url, {
      method: 'POST',
      signal: options.signal,
      fetch: options.fetch,
      // Without this the library closes the stream when the tab is hidden and POSTs again when it is shown.
      openWhenHidden: true,
      headers: {
        'Content-Type': 'application/json',
        'Cache-Control': 'no-store',
        Accept: 'text/event-stream',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
      async onopen(response) {
        if (response.status === 401) throw new Unauthorized();
        if (!response.ok) throw await refusal(response);
        if (!response.headers.get('content-type')?.includes('text/event-stream')) {
          throw new StreamFailure('request', 'The server did not answer with a stream', response.status);
        }
      },
      // Throwing here ends the stream: the library hands the error to onerror, which rethrows it.
      onmessage(message: EventSourceMessage) {
        const phase = started ? 'stream' : 'request';
        if (message.event === 'error') {
          handlers.onError(parseRecord<StreamError>(streamError, message.data, phase));
          return;
        }
        if (message.event === 'status') {
          // Only says what is under way: one this client does not know (a newer server's tool) is passed over, not a
          // reason to give up on the reply.
          const status = streamStatus.safeParse(safeJson(message.data));
          if (started && status.success) handlers.onStatus(status.data);
          return;
        }
        if (message.event === 'done') {
          const done = parseRecord<StreamDone>(streamDone, message.data, phase);
          finished = true;
          handlers.onDone(done);
          return;
        }
        // Keep-alive comments dispatch empty messages; an event name the protocol does not know is not ours to read.
        if (!message.data || (message.event !== '' && message.event !== 'message')) return;
        if (!started) {
          const control = parseRecord<StreamControl>(streamControl, message.data, 'request');
          started = true;
          handlers.onControl(control);
        } else {
          handlers.onChunk(parseRecord(streamText, message.data, 'stream'));
        }
      },
      onclose() {
        if (!finished) throw new StreamFailure(started ? 'stream' : 'request', 'The connection closed before the reply finished');
      },
      onerror(error: unknown) {
        // Rethrowing stops the library's own endless retry: a POST must never be sent twice by itself.
        throw error;
      },
    }).catch((error: unknown) => {
      if (error instanceof Unauthorized || error instanceof StreamFailure) throw error;
      if (options.signal.aborted) return;
      throw new StreamFailure(started ? 'stream' : 'request', error instanceof Error ? error.message : 'Network Error');
    });
  };

  try {
    await attempt();
  } catch (error) {
    if (!(error instanceof Unauthorized)) throw error;
    if (!(await refresh())) throw new StreamFailure('request', 'Your session has expired. Please login again.', 401);
    await new Promise((r) => setTimeout(r, RETRY_DELAY_MS));
    if (options.signal.aborted) return;
    try {
      await attempt();
    } catch (retryError) {
      if (retryError instanceof Unauthorized) throw new StreamFailure('request', 'Not authenticated', 401);
      throw retryError;
    }
  }
}

