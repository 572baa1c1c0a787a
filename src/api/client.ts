import { ofetch, type FetchResponse } from 'ofetch';
import { ApiError, NETWORK_ERROR } from './api-error';

export interface ApiClientOptions {
  baseURL: string;
  getToken(): string | null;
  /** Ask the session to refresh its tokens; resolves whether that worked. Called once for many 401s. */
  refresh(): Promise<boolean>;
  /** Called once when a refresh fails. */
  onSessionExpired?(): void;
  /** Wait before the single retry after a refresh (spec: 1000 ms). */
  retryDelayMs?: number;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: unknown;
  signal?: AbortSignal;
  /** Use this bearer instead of the access token (the refresh call sends the refresh token). */
  bearer?: string;
  /** No refresh-and-retry on 401 (login, refresh, logout themselves). */
  noRefresh?: boolean;
  /** Opt out of same-URL cancellation for calls that legitimately run side by side (uploads). */
  concurrent?: boolean;
  /** Resolve with the successful Response itself, body unread (a file download); failures are read as usual. */
  raw?: boolean;
}

export interface Envelope<T> {
  status: string;
  data: T;
  message?: string;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function requestKey(method: Method, path: string, query: RequestOptions['query']) {
  const q = Object.entries(query ?? {})
    .filter(([, v]) => v !== undefined && v !== null)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${String(v)}`)
    .join('&');
  return `${method} ${path}?${q}`;
}

/** The URL of a call: the base, the path, and the query without empty values. */
function urlOf(baseURL: string, path: string, query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.append(k, String(v));
  const search = params.toString();
  return `${baseURL}${path}${search ? `?${search}` : ''}`;
}

/** The answer's parsed body when it is JSON (ofetch parses by content type), else undefined (a proxy's error page). */
function jsonOf(response: FetchResponse<unknown>): unknown {
  if (!(response.headers.get('content-type') ?? '').includes('json')) return undefined;
  return response._data !== null && typeof response._data === 'object' ? response._data : undefined;
}

/** A refused call: the server's sentence (`detail`, else `message`), else the HTTP status. */
function httpError(response: FetchResponse<unknown>, body: unknown): ApiError {
  const b = body as { detail?: unknown; message?: unknown; fields?: Record<string, string>; code?: unknown } | undefined;
  const detail =
    typeof b?.detail === 'string' ? b.detail : typeof b?.message === 'string' ? b.message : response.statusText || `HTTP ${response.status}`;
  const code = typeof b?.code === 'string' ? b.code : undefined;
  return new ApiError({ status: response.status, detail, fields: b?.fields, code });
}

/** ofetch wraps what fetch threw (its `cause`); an abort is told by the signal that was given. */
const isAbortError = (error: unknown) =>
  error instanceof Error && (error.name === 'AbortError' || (error.cause instanceof Error && error.cause.name === 'AbortError'));

/**
 * The one HTTP client of the SPA (ARCHITECTURE.md), on ofetch: bearer token, `Cache-Control: no-store`, a `t` timestamp,
 * a new request to the same method+URL aborts the pending one, and a 401 triggers one shared refresh, then a
 * single retry after the delay. A failed refresh expires the session once, however many calls were waiting.
 */
export function createApiClient(options: ApiClientOptions) {
  const pending = new Map<string, AbortController>();
  let refreshing: Promise<boolean> | null = null;
  const retryDelayMs = options.retryDelayMs ?? 1000;

  function refreshOnce(): Promise<boolean> {
    refreshing ??= options
      .refresh()
      .catch(() => false)
      .then((ok) => {
        if (!ok) options.onSessionExpired?.();
        return ok;
      })
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  async function send<T>(method: Method, path: string, ro: RequestOptions): Promise<Envelope<T>> {
    const key = requestKey(method, path, ro.query);
    const controller = new AbortController();
    if (!ro.concurrent) {
      pending.get(key)?.abort();
      pending.set(key, controller);
    }
    const onOuterAbort = () => controller.abort();
    ro.signal?.addEventListener('abort', onOuterAbort);
    const token = ro.bearer ?? options.getToken();
    const headers: Record<string, string> = { 'Cache-Control': 'no-store', Accept: ro.raw ? '*/*' : 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    // A multipart form (an upload) goes as it is: the browser writes its Content-Type with the boundary.
    const isForm = typeof FormData !== 'undefined' && ro.body instanceof FormData;
    if (ro.body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
    try {
      let response: FetchResponse<unknown>;
      try {
        response = await ofetch.raw(urlOf(options.baseURL, path, { ...ro.query, t: Date.now() }), {
          method,
          headers,
          body: ro.body === undefined ? undefined : isForm ? (ro.body as FormData) : JSON.stringify(ro.body),
          signal: controller.signal,
          // Refusals are read below (the server's sentence); a download's body is left unread for the caller.
          ignoreResponseError: true,
          responseType: ro.raw ? 'stream' : undefined,
          // One retry only, after a refresh (request() below): ofetch's own retries would resend a GET on a 5xx.
          retry: 0,
        });
      } catch (error) {
        if (controller.signal.aborted || isAbortError(error)) throw new ApiError({ status: 0, detail: 'Request cancelled', aborted: true });
        throw new ApiError({ status: 0, detail: NETWORK_ERROR });
      }
      // A download's body is a stream (left unread); when it was refused, the server's sentence is read from it.
      const body = ro.raw && !response.ok ? await response.json().catch(() => undefined) : jsonOf(response);
      if (!response.ok) throw httpError(response, body);
      if (ro.raw) return response as unknown as Envelope<T>;
      const envelope = body as Envelope<T>;
      // A body that says it failed is a failure carrying its message, whatever the HTTP status.
      if (envelope && typeof envelope === 'object' && 'status' in envelope && envelope.status !== 'success') {
        throw new ApiError({ status: 200, detail: envelope.message ?? 'Request failed' });
      }
      return envelope;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (isAbortError(error)) throw new ApiError({ status: 0, detail: 'Request cancelled', aborted: true });
      throw new ApiError({ status: 0, detail: NETWORK_ERROR });
    } finally {
      ro.signal?.removeEventListener('abort', onOuterAbort);
      if (pending.get(key) === controller) pending.delete(key);
    }
  }

  async function request<T>(method: Method, path: string, ro: RequestOptions = {}): Promise<Envelope<T>> {
    const tokenAtSend = ro.bearer ? null : options.getToken();
    try {
      return await send<T>(method, path, ro);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401 || ro.noRefresh || !tokenAtSend) throw error;
      // A call that went out with a token another call has already replaced just retries.
      const ok = options.getToken() !== tokenAtSend ? true : await refreshOnce();
      if (!ok) throw error;
      await sleep(retryDelayMs);
      return send<T>(method, path, ro);
    }
  }

  return {
    request,
    get: <T>(path: string, ro?: RequestOptions) => request<T>('GET', path, ro),
    post: <T>(path: string, body?: unknown, ro?: RequestOptions) => request<T>('POST', path, { ...ro, body }),
    put: <T>(path: string, body?: unknown, ro?: RequestOptions) => request<T>('PUT', path, { ...ro, body }),
    patch: <T>(path: string, body?: unknown, ro?: RequestOptions) => request<T>('PATCH', path, { ...ro, body }),
    delete: <T>(path: string, ro?: RequestOptions) => request<T>('DELETE', path, ro),
    /** A file (GET): the successful Response, with the same token, refresh and retry as every other call. */
    download: async (path: string, ro?: RequestOptions): Promise<Response> =>
      (await request<never>('GET', path, { ...ro, raw: true })) as unknown as Response,
    /** For the streaming call, which shares the session's refresh. */
    refreshOnce,
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
