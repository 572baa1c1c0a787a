import OpenAI, { APIError } from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { LlmConfig, LlmEndpoint } from '../config';
import { LlmCallError, type ChatChunk, type ChatModel, type ChatRequest, type FinishReason, type ModelSource, type TokenUsage } from './types';

const OPENAI_API = 'https://api.openai.com/v1';

/**
 * Models that take `reasoning_effort` (and `max_completion_tokens` instead of `max_tokens`), by name:
 * OpenAI's o-series and gpt-5, also behind a LiteLLM-style "openai/" prefix. Others (Ollama, vLLM, older
 * GPTs) reject the parameter, so with LLM_REASONING=auto it is sent to these only.
 */
const REASONING_MODEL = /^(?:[\w.-]+\/)?(?:o\d|gpt-5)/i;

export function takesReasoningEffort(model: string, mode: LlmConfig['reasoning']): boolean {
  if (mode === 'always') return true;
  if (mode === 'never') return false;
  return REASONING_MODEL.test(model);
}

export interface OpenAiCompatibleOptions {
  reasoning: LlmConfig['reasoning'];
}

export function createOpenAiCompatibleModel(endpoint: LlmEndpoint, options: OpenAiCompatibleOptions): ChatModel {
  const source: ModelSource = { provider: providerName(endpoint.baseUrl), model: endpoint.model };
  const reasoning = takesReasoningEffort(endpoint.model, options.reasoning);
  const client = new OpenAI({
    // Explicit, so the SDK's own OPENAI_* environment variables never redirect a configured endpoint.
    baseURL: endpoint.baseUrl ?? OPENAI_API,
    organization: null,
    project: null,
    // The SDK insists on a key; local servers (Ollama, vLLM) ignore whatever is sent.
    apiKey: endpoint.apiKey ?? 'not-needed',
    // One quick retry of a refused request; a backup (failover.ts) is the better second chance.
    maxRetries: 1,
    // The SDK's own logging could print request details; failures are reported by the caller instead.
    logLevel: 'off',
  });

  return {
    source,
    offline: false,
    async *stream(request: ChatRequest): AsyncGenerator<ChatChunk> {
      const params: ChatCompletionCreateParamsStreaming = {
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
      try {
        const stream = await client.chat.completions.create(params, { signal: request.signal });
        for await (const chunk of stream) {
          if (chunk.usage) {
            usage = { prompt_tokens: chunk.usage.prompt_tokens, completion_tokens: chunk.usage.completion_tokens };
          }
          const choice = chunk.choices[0];
          if (!choice) continue;
          const text = choice.delta?.content;
          if (text) yield { type: 'delta', text };
          if (choice.finish_reason === 'length') finishReason = 'length';
          else if (choice.finish_reason === 'content_filter') finishReason = 'filtered';
        }
      } catch (err) {
        throw toCallError(source, err);
      }
      yield { type: 'finish', finishReason, usage, source };
    },
  };
}

/** The endpoint's host names the provider in the usage ledger (api.openai.com, an Azure resource, a LAN box). */
function providerName(baseUrl: string | undefined): string {
  return new URL(baseUrl ?? OPENAI_API).host;
}

/**
 * Only the status and the error's class go into the message: a provider's error text may echo parts of the
 * request, and some quote the API key.
 */
function toCallError(source: ModelSource, err: unknown): LlmCallError {
  if (err instanceof APIError && err.status !== undefined) {
    return new LlmCallError(source, `HTTP ${err.status} from ${source.provider}`, err.status, { cause: err });
  }
  const kind = err instanceof Error ? err.constructor.name : 'unknown error';
  return new LlmCallError(source, `${kind} while talking to ${source.provider}`, undefined, { cause: err });
}
