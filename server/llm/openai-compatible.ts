import { APIError } from 'openai';
import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { LlmConfig, LlmEndpoint } from '../config';
import type { Dispatcher } from 'undici';
import { createOpenAiSdk, endpointBase, proxyDispatcher } from './openai-sdk';
import { LlmCallError, type ChatChunk, type ChatModel, type ChatRequest, type FinishReason, type ModelSource, type TokenUsage } from './types';

/**
 * Models that take `reasoning_effort` (and `max_completion_tokens` instead of `max_tokens`), by name:
 * OpenAI's o-series and gpt-5, also behind a LiteLLM-style "openai/" prefix. Others (Ollama, vLLM, older
 * GPTs) reject the parameter, so with LLM_REASONING=auto it is sent to these only.
 */
const REASONING_MODEL = /^(?:[\w.-]+\/)?(?:o\d|gpt-5)/i;

/** Without any byte from the provider for this long, the call fails (the OpenAI SDK's default timeout). */
const IDLE_TIMEOUT_MS = 10 * 60_000;
/**
 * One quick retry of a refused request (the SDK's: after Retry-After(-Ms) up to 60 s, else about 0.5 s; 408, 409,
 * 429, 5xx or the provider's x-should-retry); a backup is the better second chance.
 */
const RETRIES = 1;

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

/**
 * Chat completions, streamed through the official OpenAI SDK (OpenAI, Azure OpenAI's v1 API, Ollama, vLLM,
 * LiteLLM; a proxy from HTTPS_PROXY, see openai-sdk.ts). The SDK costs a little per reply against a hand-written
 * node:http client (issue 29: about 3 ms measured before; `npm run bench` compares the server-added time to first
 * token with a bare relay's in the same run): worth not owning a protocol client.
 */
export function createOpenAiCompatibleModel(endpoint: LlmEndpoint, options: OpenAiCompatibleOptions): ChatModel {
  const { host } = endpointBase(endpoint);
  const source: ModelSource = { provider: host, model: endpoint.model };
  const reasoning = takesReasoningEffort(endpoint.model, options.reasoning);
  const dispatcher = proxyDispatcher(IDLE_TIMEOUT_MS);
  const client = createOpenAiSdk(endpoint, { maxRetries: RETRIES, timeoutMs: IDLE_TIMEOUT_MS, keyWhenUnset: 'not-needed', dispatcher });
  // Said so providers and proxies know a stream is wanted (the SDK's default says JSON).
  const headers = { accept: 'text/event-stream' };

  return {
    source,
    offline: false,
    async *stream(request: ChatRequest): AsyncGenerator<ChatChunk> {
      const { signal } = request;
      // Nothing is sent for a call already given up.
      if (signal?.aborted) throw signal.reason;
      const params: ChatCompletionCreateParamsStreaming = {
        model: endpoint.model,
        // The turns are OpenAI's chat format already (types.ts).
        messages: request.messages as ChatCompletionCreateParamsStreaming['messages'],
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
      try {
        // Leaving this loop early (the consumer stopped, a failure) aborts the SDK's request: the connection is
        // closed, not left streaming. After [DONE] the SDK reads the answer to its end, so the connection is reused.
        // The SDK and undici's fetch take a few turns of the event loop before the request is handed on (a
        // hand-written node:http client wrote it at once): the caller learns when, and only then saves the question
        // (synchronous SQLite), which would otherwise hold the request back (measured: about 2 ms per first token).
        const { onSent } = request;
        const fetchOptions = onSent ? { dispatcher: dispatcher.compose(tellingWhenSent(onSent)) } : undefined;
        const stream = await client.chat.completions.create(params, { signal, headers, fetchOptions: fetchOptions as OpenAI.RequestOptions['fetchOptions'] });
        for await (const chunk of stream) {
          if (chunk.usage) usage = { prompt_tokens: chunk.usage.prompt_tokens, completion_tokens: chunk.usage.completion_tokens };
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          const text = choice.delta?.content;
          if (text) yield { type: 'delta', text };
          if (choice.finish_reason === 'length') finishReason = 'length';
          else if (choice.finish_reason === 'content_filter') finishReason = 'filtered';
        }
        // The SDK ends a stream quietly when its request is aborted; an aborted call must not look finished.
        if (signal?.aborted) throw signal.reason;
      } catch (err) {
        // An abort (the app closing, a failover giving up on this call) is the caller's doing, not the provider's.
        if (signal?.aborted) throw signal.reason;
        throw toCallError(source, err);
      }
      yield { type: 'finish', finishReason, usage, source };
    },
  };
}

/** An interceptor calling `onSent` once undici has taken the request (and written it, on a kept-alive connection). */
function tellingWhenSent(onSent: () => void): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const accepted = dispatch(opts, handler);
    onSent();
    return accepted;
  };
}

/**
 * Only the status and the error's class go into the message: a provider's error text may echo parts of the
 * request, and some quote the API key.
 */
function toCallError(source: ModelSource, err: unknown): LlmCallError {
  if (err instanceof APIError && err.status !== undefined) {
    return new LlmCallError(source, `HTTP ${err.status} from ${source.provider}`, err.status, { cause: err });
  }
  const kind = err instanceof Error ? err.name : 'unknown error';
  return new LlmCallError(source, `${kind} while talking to ${source.provider}`, undefined, { cause: err });
}
