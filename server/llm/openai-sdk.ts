import OpenAI from 'openai';
import { EnvHttpProxyAgent, FormData as UndiciFormData, fetch as undiciFetch, type Dispatcher, type RequestInit as UndiciRequestInit } from 'undici';

const OPENAI_API = 'https://api.openai.com/v1';

export interface SdkEndpoint {
  /** An OpenAI-compatible base URL (…/v1); the OpenAI API when unset. */
  baseUrl?: string;
  apiKey?: string;
}

export interface SdkOptions {
  /** The SDK's own quick retries of a refused or unreachable request (429, 5xx, connection errors). */
  maxRetries: number;
  /** Until the answer's headers (the SDK's timeout), and between two pieces of its body (the dispatcher's). */
  timeoutMs: number;
  /**
   * The bearer sent when the endpoint has no key (local servers such as Ollama or vLLM take any; never another
   * endpoint's key). Unset: no Authorization header at all.
   */
  keyWhenUnset?: string;
  /** The connections' pool (proxyDispatcher()); one of its own by default. */
  dispatcher?: Dispatcher;
}

/**
 * Kept-alive connections that honour HTTPS_PROXY / HTTP_PROXY (either case) and NO_PROXY as they are set now;
 * `timeoutMs` also bounds the wait for an answer's headers and between two pieces of its body.
 */
export function proxyDispatcher(timeoutMs: number): Dispatcher {
  return new EnvHttpProxyAgent({ headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
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
 * A multipart body (transcription) in undici's own FormData: the SDK builds Node's global one, which undici's
 * newer fetch would send as the text "[object FormData]". Its files are Node Blobs, which both accept.
 */
function asUndiciBody(body: unknown): UndiciRequestInit['body'] {
  if (!(body instanceof globalThis.FormData)) return body as UndiciRequestInit['body'];
  const form = new UndiciFormData();
  for (const [name, value] of body.entries()) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, value.name);
  }
  return form;
}

/**
 * The official OpenAI SDK for one OpenAI-compatible endpoint (OpenAI, Azure OpenAI's v1 API, Ollama, vLLM,
 * LiteLLM). Requests go through undici's fetch with an EnvHttpProxyAgent: HTTPS_PROXY / HTTP_PROXY (either case)
 * and NO_PROXY are honoured as read when the client is made (a corporate proxy in front of the provider), and
 * connections are kept alive (a new TCP and TLS connection per reply would add its round trips to every first
 * token). The dispatcher and its fetch are undici's own: a dispatcher must be paired with the fetch it belongs to.
 */
export function createOpenAiSdk(endpoint: SdkEndpoint, options: SdkOptions): OpenAI {
  const dispatcher = options.dispatcher ?? proxyDispatcher(options.timeoutMs);
  // A request's own dispatcher (fetchOptions) comes first: the chat stream's tells when its request has left.
  const fetchOnce = ((url: string, init: UndiciRequestInit | undefined) =>
    undiciFetch(url, { dispatcher, ...init, body: asUndiciBody(init?.body) })) as unknown as typeof globalThis.fetch;
  const fetchAgainOnSocketFailure = async (url: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    try {
      return await fetchOnce(url, init);
    } catch (err) {
      if (init?.signal?.aborted || !isSocketFailure(err)) throw err;
      return fetchOnce(url, init);
    }
  };
  return new OpenAI({
    baseURL: endpointBase(endpoint).baseUrl,
    // The SDK insists on a key; a null Authorization header then leaves it out.
    apiKey: endpoint.apiKey ?? options.keyWhenUnset ?? 'none',
    defaultHeaders: endpoint.apiKey ?? options.keyWhenUnset ? undefined : { Authorization: null },
    maxRetries: options.maxRetries,
    timeout: options.timeoutMs,
    // The SDK checks that a fetch takes its (global) FormData through the fetch's Response class: the global one
    // does, and asUndiciBody hands undici the same fields.
    fetch: Object.assign(fetchAgainOnSocketFailure, { Response: globalThis.Response }),
  });
}

const clients = new WeakMap<object, Map<string, OpenAI>>();

/**
 * One client per configured endpoint (the config's object, parsed once per app) and options, so calls made per
 * question or per document (embeddings, transcription, images) share kept-alive connections instead of opening
 * new ones each time. A new config (another app, a test) gets its own, with the proxy variables as they are then.
 */
export function openAiSdkFor(endpoint: SdkEndpoint & object, options: SdkOptions): OpenAI {
  let byOptions = clients.get(endpoint);
  if (!byOptions) clients.set(endpoint, (byOptions = new Map()));
  const key = `${options.maxRetries}/${options.timeoutMs}/${options.keyWhenUnset ?? ''}`;
  let client = byOptions.get(key);
  if (!client) byOptions.set(key, (client = createOpenAiSdk(endpoint, options)));
  return client;
}
