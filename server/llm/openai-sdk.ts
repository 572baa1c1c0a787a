import OpenAI from 'openai';
import { EnvHttpProxyAgent, fetch as undiciFetch } from 'undici';

const OPENAI_API = 'https://api.openai.com/v1';

export interface SdkEndpoint {
  /** An OpenAI-compatible base URL (…/v1); the OpenAI API when unset. */
  baseUrl?: string;
  /** Local servers (Ollama, vLLM) take any key; never another endpoint's. Unset: no Authorization header. */
  apiKey?: string;
}

export interface SdkOptions {
  /** The SDK's own quick retries of a refused or unreachable request (429, 5xx, connection errors). */
  maxRetries: number;
  /** Until the answer's headers (the SDK's timeout), and between two pieces of its body (the dispatcher's). */
  timeoutMs: number;
}

/** The endpoint's base URL without a trailing slash, and its host (what messages and the usage ledger name). */
export function endpointBase(endpoint: SdkEndpoint): { baseUrl: string; host: string } {
  const baseUrl = (endpoint.baseUrl ?? OPENAI_API).replace(/\/+$/, '');
  return { baseUrl, host: new URL(baseUrl).host };
}

/**
 * A network failure before any answer (a kept-alive connection the provider had closed just as it was reused,
 * reset or refused): the request never got an answer, so it is sent again at once, on another connection. The
 * SDK would also retry it, but only after half a second.
 */
function isSocketFailure(err: unknown): boolean {
  const cause = (err as { cause?: { code?: unknown } } | null)?.cause;
  return err instanceof TypeError && (cause?.code === 'UND_ERR_SOCKET' || cause?.code === 'ECONNRESET');
}

/**
 * The official OpenAI SDK for one OpenAI-compatible endpoint (OpenAI, Azure OpenAI's v1 API, Ollama, vLLM,
 * LiteLLM). Requests go through undici's fetch with an EnvHttpProxyAgent: HTTPS_PROXY / HTTP_PROXY (either case)
 * and NO_PROXY are honoured as read when the client is made (a corporate proxy in front of the provider), and
 * connections are kept alive (a new TCP and TLS connection per reply would add its round trips to every first
 * token). The dispatcher and its fetch are undici's own: a dispatcher must be paired with the fetch it belongs to.
 */
export function createOpenAiSdk(endpoint: SdkEndpoint, options: SdkOptions): OpenAI {
  const dispatcher = new EnvHttpProxyAgent({ headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs });
  const fetchOnce = ((url: string, init: Parameters<typeof undiciFetch>[1]) =>
    undiciFetch(url, { ...init, dispatcher })) as unknown as typeof globalThis.fetch;
  const fetchAgainOnSocketFailure: typeof globalThis.fetch = async (url, init) => {
    try {
      return await fetchOnce(url, init);
    } catch (err) {
      if (init?.signal?.aborted || !isSocketFailure(err)) throw err;
      return fetchOnce(url, init);
    }
  };
  return new OpenAI({
    baseURL: endpointBase(endpoint).baseUrl,
    // The SDK insists on a key; a null Authorization header then leaves it out for endpoints without one.
    apiKey: endpoint.apiKey ?? 'none',
    defaultHeaders: endpoint.apiKey ? undefined : { Authorization: null },
    maxRetries: options.maxRetries,
    timeout: options.timeoutMs,
    fetch: fetchAgainOnSocketFailure,
  });
}
