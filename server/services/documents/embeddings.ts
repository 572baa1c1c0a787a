import { setTimeout as sleep } from 'node:timers/promises';
import { APIError } from 'openai';
import type { LlmEndpoint } from '../../config';
import { endpointBase, openAiSdkFor } from '../../llm/openai-sdk';
/** Texts per request: well inside providers' limits (OpenAI takes 2,048 inputs), few requests per document. */
export const EMBEDDING_BATCH = 64;
/** Tries per batch when the provider says to slow down (429) or fails on its side (5xx). */
const ATTEMPTS = 5;
/** The first pause without a Retry-After, doubled after each refusal. */
const FIRST_BACKOFF_MS = 500;
/** A Retry-After longer than this is cut to it: ingestion waits, but not for ever. */
const RETRY_AFTER_MAX_MS = 30_000;
const REQUEST_TIMEOUT_MS = 60_000;

/** The embeddings endpoint failed; the message names the status at most (never the body or the key). */
export class EmbeddingsError extends Error {
  override name = 'EmbeddingsError';
}

export interface EmbedOptions {
  signal?: AbortSignal;
  /** Tries per batch (default ATTEMPTS); a question being answered tries once, it cannot wait for back-offs. */
  attempts?: number;
  /** Per request (default 60 s). */
  timeoutMs?: number;
}

export interface Embedder {
  readonly model: string;
  /** One unit-length vector per text, in order. Throws an EmbeddingsError. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<number[][]>;
}

/** Scaled to length 1: cosine similarity is then the dot product (PostgreSQL computes that in SQL). */
export function unitLength(vector: readonly number[]): number[] {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum);
  return norm > 0 ? vector.map((v) => v / norm) : [...vector];
}

/** What the provider asks to wait before trying again (Retry-After-Ms, Retry-After in seconds or as a date). */
function retryAfterMs(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (!Number.isNaN(ms)) return ms;
  const after = headers.get('retry-after');
  if (!after) return undefined;
  const seconds = Number.parseFloat(after);
  const wait = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
  return Number.isNaN(wait) ? undefined : Math.max(0, wait);
}

/**
 * An OpenAI-compatible POST /embeddings client (OpenAI, Azure OpenAI's v1 API, Ollama, vLLM, LiteLLM) through the
 * official SDK (a proxy from HTTPS_PROXY, see llm/openai-sdk.ts). The retries are this file's, not the SDK's:
 * ingestion waits longer for a busy provider than a chat reply does.
 */
export function createEmbedder(endpoint: LlmEndpoint): Embedder {
  const { host } = endpointBase(endpoint);
  const client = openAiSdkFor(endpoint, { maxRetries: 0, timeoutMs: REQUEST_TIMEOUT_MS, keyWhenUnset: 'not-needed' });

  const request = async (input: readonly string[], options: EmbedOptions): Promise<number[][]> => {
    const { signal, attempts = ATTEMPTS, timeoutMs = REQUEST_TIMEOUT_MS } = options;
    for (let attempt = 1; ; attempt++) {
      let status: number;
      let headers: Headers | undefined;
      try {
        const body = await client.embeddings.create(
          { model: endpoint.model, input: [...input], encoding_format: 'float' },
          { signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs), timeout: timeoutMs },
        );
        const data: Array<{ index?: number; embedding?: unknown }> = body.data ?? [];
        const vectors: number[][] = new Array(input.length);
        data.forEach((item, i) => {
          if (Array.isArray(item.embedding)) vectors[item.index ?? i] = unitLength(item.embedding as number[]);
        });
        if (vectors.length !== input.length || vectors.some((v) => !v || v.length === 0)) {
          throw new EmbeddingsError(`the embeddings endpoint ${host} answered without a vector for every text`);
        }
        return vectors;
      } catch (err) {
        if (err instanceof EmbeddingsError) throw err;
        if (signal?.aborted) throw signal.reason;
        if (!(err instanceof APIError) || err.status === undefined) {
          throw new EmbeddingsError(`the embeddings endpoint ${host} could not be reached`, { cause: err });
        }
        status = err.status;
        headers = err.headers;
      }
      const retryable = status === 429 || status >= 500;
      if (!retryable || attempt >= attempts) {
        throw new EmbeddingsError(`the embeddings endpoint ${host} answered HTTP ${status}`);
      }
      const wait = retryAfterMs(headers) ?? FIRST_BACKOFF_MS * 2 ** (attempt - 1);
      await sleep(Math.min(wait, RETRY_AFTER_MAX_MS), undefined, { signal });
    }
  };

  return {
    model: endpoint.model,
    async embed(texts, options = {}) {
      const out: number[][] = [];
      for (let start = 0; start < texts.length; start += EMBEDDING_BATCH) {
        out.push(...(await request(texts.slice(start, start + EMBEDDING_BATCH), options)));
      }
      return out;
    },
  };
}
