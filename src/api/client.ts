import { FetchError, ofetch } from 'ofetch';
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
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${String(v)}`)
    .join('&');
  return `${method} ${path}?${q}`;
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof FetchError) {
    if (error.name === 'AbortError' || (error.cause as Error | undefined)?.name === 'AbortError') {
      return new ApiError({ status: 0, detail: 'Request cancelled', aborted: true });
    }
    const status = error.response?.status ?? 0;
    if (!status) return new ApiError({ status: 0, detail: NETWORK_ERROR });
    const body = error.data as { detail?: unknown; message?: unknown; fields?: Record<string, string> } | undefined;
    const detail =
      typeof body?.detail === 'string' ? body.detail : typeof body?.message === 'string' ? body.message : error.statusText || `HTTP ${status}`;
    return new ApiError({ status, detail, fields: body?.fields });
  }
  if (error instanceof Error && error.name === 'AbortError') return new ApiError({ status: 0, detail: 'Request cancelled', aborted: true });
  return new ApiError({ status: 0, detail: NETWORK_ERROR });
}

/**
 * The one HTTP client of the SPA (ARCHITECTURE.md): bearer token, `Cache-Control: no-store`, a `t` timestamp,
 * a new request to the same method+URL aborts the pending one, and a 401 triggers one shared refresh, then a
 * single retry after the delay. A failed refresh expires the session once, however many calls were waiting.
 */
export function createApiClient(options: ApiClientOptions) {
  const pending = new Map<string, AbortController>();
  let refreshing: Promise<boolean> | null = null;
  const retryDelayMs = options.retryDelayMs ?? 1000;
  const $fetch = ofetch.create({ baseURL: options.baseURL, retry: 0 });

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
    try {
      const envelope = await $fetch<Envelope<T>>(path, {
        method,
        query: { ...ro.query, t: Date.now() },
        body: ro.body as Record<string, unknown> | undefined,
        signal: controller.signal,
        headers: {
          'Cache-Control': 'no-store',
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
      });
      // A body that says it failed is a failure carrying its message, whatever the HTTP status.
      if (envelope && typeof envelope === 'object' && 'status' in envelope && envelope.status !== 'success') {
        throw new ApiError({ status: 200, detail: envelope.message ?? 'Request failed' });
      }
      return envelope;
    } catch (error) {
      throw toApiError(error);
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
    /** For the streaming call, which shares the session's refresh. */
    refreshOnce,
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
