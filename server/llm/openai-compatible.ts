import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LlmConfig, LlmEndpoint } from '../config';
import { SseDataReader } from './sse-data';
import { LlmCallError, type ChatChunk, type ChatModel, type ChatRequest, type FinishReason, type ModelSource, type TokenUsage } from './types';

const OPENAI_API = 'https://api.openai.com/v1';

/**
 * Models that take `reasoning_effort` (and `max_completion_tokens` instead of `max_tokens`), by name:
 * OpenAI's o-series and gpt-5, also behind a LiteLLM-style "openai/" prefix. Others (Ollama, vLLM, older
 * GPTs) reject the parameter, so with LLM_REASONING=auto it is sent to these only.
 */
const REASONING_MODEL = /^(?:[\w.-]+\/)?(?:o\d|gpt-5)/i;

/** Without any byte from the provider for this long, the call fails (the OpenAI SDK's default timeout). */
const IDLE_TIMEOUT_MS = 10 * 60_000;
/** One quick retry of a refused request (as the OpenAI SDK did with maxRetries 1); a backup is the better second chance. */
const RETRIES = 1;
/** The first retry's pause without a Retry-After from the provider: the SDK's 0.5 s, less up to a quarter. */
const RETRY_DELAY_MS = 500;
/** A Retry-After longer than this is not waited for (a backup, or the user trying later, does better). */
const RETRY_AFTER_MAX_MS = 60_000;

export function takesReasoningEffort(model: string, mode: LlmConfig['reasoning']): boolean {
  if (mode === 'always') return true;
  if (mode === 'never') return false;
  return REASONING_MODEL.test(model);
}

/**
 * Models that take images in a chat turn, by name (also behind a LiteLLM-style "provider/" prefix): OpenAI's
 * gpt-4o, gpt-4.1, gpt-5 and o-series, Claude, Gemini, LLaVA. Others would refuse a question with image parts, so
 * with LLM_VISION=auto only these get the conversation's images.
 */
const VISION_MODEL = /^(?:[\w.-]+\/)?(?:gpt-4o|gpt-4\.1|gpt-5|o1|o3|o4|claude|gemini|llava)/i;

export function takesImages(model: string, mode: LlmConfig['vision']): boolean {
  if (mode === 'always') return true;
  if (mode === 'never') return false;
  return VISION_MODEL.test(model);
}

export interface OpenAiCompatibleOptions {
  reasoning: LlmConfig['reasoning'];
}

/** The chat-completions request body (the part of the API this client speaks). */
interface CompletionParams {
  model: string;
  messages: ChatRequest['messages'];
  stream: true;
  stream_options: { include_usage: true };
  reasoning_effort?: string;
  max_tokens?: number;
  max_completion_tokens?: number;
}

/** One event of the stream, as far as it is read. */
interface CompletionChunk {
  choices?: Array<{ delta?: { content?: string | null } | null; finish_reason?: string | null }>;
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  error?: unknown;
}

/** The provider answered with an error status (the body is not kept: it may echo the request). */
class ProviderStatusError extends Error {
  override name = 'ProviderStatusError';
  constructor(
    readonly status: number,
    readonly retryAfterMs: number | undefined,
    readonly retryable: boolean,
  ) {
    super(`HTTP ${status}`);
  }
}

/**
 * A kept-alive connection the provider had closed just as it was reused: the request never reached it, so it is
 * sent again at once, on another connection (and counts as no retry).
 */
class StaleConnection extends Error {
  override name = 'StaleConnection';
}

/** The caller aborted the call (its signal), while it was sent or while its answer streamed. */
class CallAborted extends Error {
  override name = 'AbortError';
}

/** An error event inside a stream that had started well. */
class ProviderStreamError extends Error {
  override name = 'ProviderStreamError';
}

/**
 * A streaming client for OpenAI-compatible chat completions (OpenAI, Azure OpenAI's v1 API, Ollama, vLLM,
 * LiteLLM) on node:http with kept-alive connections: the request leaves as soon as stream() is first read, and
 * each event is handed on as soon as its bytes arrive. The OpenAI SDK cost about 3 ms per reply here, before the
 * request and after the first token; this is the small part of it a chat stream needs.
 */
export function createOpenAiCompatibleModel(endpoint: LlmEndpoint, options: OpenAiCompatibleOptions): ChatModel {
  const baseUrl = endpoint.baseUrl ?? OPENAI_API;
  const source: ModelSource = { provider: new URL(baseUrl).host, model: endpoint.model };
  const reasoning = takesReasoningEffort(endpoint.model, options.reasoning);
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/chat/completions`);
  const transport = url.protocol === 'https:' ? https : http;
  // Kept alive: a new TCP (and TLS) connection per reply would add its round trips to every first token.
  const agent = new transport.Agent({ keepAlive: true });
  // Worked out once, not on every request: node:http turns a URL into options and checks each header of an object
  // one by one, and after a quiet spell (caches cold) that took a fifth of a millisecond before each first token.
  const target = { protocol: url.protocol, hostname: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: 'POST', agent };
  // As message.rawHeaders: names and values in turn. Host is written here because node:http adds it only to headers
  // given as an object.
  const headers = [
    'host', url.host,
    'content-type', 'application/json',
    'accept', 'text/event-stream',
    // Local servers (Ollama, vLLM) ignore whatever is sent; never another endpoint's key.
    'authorization', `Bearer ${endpoint.apiKey ?? 'not-needed'}`,
  ];

  const aborted = (signal: AbortSignal) => new CallAborted('the model call was aborted', { cause: signal.reason });

  /** The response to one attempt, once its status is 2xx; a refused attempt throws ProviderStatusError. */
  const post = (body: string, signal: AbortSignal | undefined) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      // Nothing is sent, and no kept-alive connection is taken from the agent only to be closed.
      if (signal?.aborted) {
        reject(aborted(signal));
        return;
      }
      const req = transport.request({ ...target, headers: [...headers, 'content-length', String(Buffer.byteLength(body))] });
      req.setTimeout(IDLE_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${IDLE_TIMEOUT_MS} ms`)));
      req.once('error', (err: NodeJS.ErrnoException) => {
        reject(req.reusedSocket && err.code === 'ECONNRESET' ? new StaleConnection(err.message, { cause: err }) : err);
      });
      req.once('response', (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          resolve(res);
          return;
        }
        // The body is read (the connection can then be reused) and dropped.
        res.resume();
        reject(new ProviderStatusError(status, retryAfterMs(res), shouldRetry(res, status)));
      });
      // An abort ends the request, or its response while that streams: one listener, not node:http's `signal`
      // option (which also sets up stream-end tracking on the request; a tenth of a millisecond when cold).
      if (signal) {
        const abort = () => req.destroy(aborted(signal));
        signal.addEventListener('abort', abort, { once: true });
        req.once('close', () => signal.removeEventListener('abort', abort));
      }
      req.end(body);
    });

  const respond = async (body: string, signal: AbortSignal | undefined): Promise<IncomingMessage> => {
    for (let retries = RETRIES; ; retries--) {
      try {
        return await post(body, signal);
      } catch (err) {
        if (signal?.aborted) throw err;
        if (err instanceof StaleConnection) {
          retries++;
          continue;
        }
        if (retries === 0) throw err;
        if (err instanceof ProviderStatusError && !err.retryable) throw err;
        await sleep(err instanceof ProviderStatusError && err.retryAfterMs !== undefined ? err.retryAfterMs : RETRY_DELAY_MS * (1 - Math.random() * 0.25), undefined, { signal });
      }
    }
  };

  return {
    source,
    offline: false,
    async *stream(request: ChatRequest): AsyncGenerator<ChatChunk> {
      const params: CompletionParams = {
        model: endpoint.model,
        messages: request.messages,
        stream: true,
        stream_options: { include_usage: true },
      };
      if (reasoning && request.reasoningEffort) params.reasoning_effort = request.reasoningEffort;
      if (request.maxTokens !== undefined) {
        if (reasoning) params.max_completion_tokens = request.maxTokens;
        else params.max_tokens = request.maxTokens;
      }

      let finishReason: FinishReason = 'stop';
      let usage: TokenUsage | null = null;
      let res: IncomingMessage | undefined;
      try {
        res = await respond(JSON.stringify(params), request.signal);
        res.setEncoding('utf8');
        const reader = new SseDataReader();
        let done = false;
        for await (const piece of res as AsyncIterable<string>) {
          for (const data of reader.push(piece)) {
            // After [DONE] nothing more is read, but the response is read to its end (the connection is reused).
            if (done) continue;
            if (data.startsWith('[DONE]')) {
              done = true;
              continue;
            }
            const chunk = JSON.parse(data) as CompletionChunk;
            if (chunk.error) throw new ProviderStreamError('the provider reported an error inside the stream');
            if (chunk.usage) usage = { prompt_tokens: chunk.usage.prompt_tokens, completion_tokens: chunk.usage.completion_tokens };
            const choice = chunk.choices?.[0];
            if (!choice) continue;
            const text = choice.delta?.content;
            if (text) yield { type: 'delta', text };
            if (choice.finish_reason === 'length') finishReason = 'length';
            else if (choice.finish_reason === 'content_filter') finishReason = 'filtered';
          }
        }
      } catch (err) {
        // An abort (the app closing, a failover giving up on this call) is the caller's doing, not the provider's.
        if (request.signal?.aborted) throw request.signal.reason;
        throw toCallError(source, err);
      } finally {
        // The consumer stopped early or the stream failed: the connection is closed, not left streaming.
        if (res && !res.complete) res.destroy();
      }
      yield { type: 'finish', finishReason, usage, source };
    },
  };
}

/** What the provider asks to wait before a retry (Retry-After-Ms, Retry-After in seconds or as a date), if anything. */
function retryAfterMs(res: IncomingMessage): number | undefined {
  const ms = Number.parseFloat(String(res.headers['retry-after-ms'] ?? ''));
  let wait = Number.isNaN(ms) ? undefined : ms;
  const after = res.headers['retry-after'];
  if (wait === undefined && after) {
    const seconds = Number.parseFloat(after);
    wait = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
  }
  return wait !== undefined && wait >= 0 && wait <= RETRY_AFTER_MAX_MS ? wait : undefined;
}

/** As the OpenAI SDK decides: the provider's x-should-retry if given, else timeouts, lock timeouts, rate limits, 5xx. */
function shouldRetry(res: IncomingMessage, status: number): boolean {
  const says = res.headers['x-should-retry'];
  if (says === 'true') return true;
  if (says === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Only the status and the error's class go into the message: a provider's error text may echo parts of the
 * request, and some quote the API key.
 */
function toCallError(source: ModelSource, err: unknown): LlmCallError {
  if (err instanceof ProviderStatusError) {
    return new LlmCallError(source, `HTTP ${err.status} from ${source.provider}`, err.status, { cause: err });
  }
  const kind = err instanceof Error ? err.name : 'unknown error';
  return new LlmCallError(source, `${kind} while talking to ${source.provider}`, undefined, { cause: err });
}
