// What the search providers (search-*.ts) share: the shape of a result and a bounded JSON call.

import { readLimited } from './read-body';

/** One result of a web search: where, what it is called, and the provider's short extract. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchRequest {
  query: string;
  /** How many results are wanted (providers may return more; the caller keeps what it needs). */
  count: number;
  signal: AbortSignal;
}

/** A search that failed; `message` is safe to show (no key, no URL with a key in it, no stack). */
export class SearchError extends Error {
  override name = 'SearchError';
}

/** The search provider's whole answer is read into memory: far more than any results page needs. */
export const SEARCH_MAX_BYTES = 2 * 1024 * 1024;
export const SEARCH_TIMEOUT_MS = 10_000;

/** The provider's JSON answer, read with a time and size limit; failures become SearchErrors that name the provider. */
export async function fetchSearchJson(provider: string, url: string, init: RequestInit, signal: AbortSignal): Promise<unknown> {
  const timeout = AbortSignal.timeout(SEARCH_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.any([signal, timeout]) });
  } catch {
    throw new SearchError(timeout.aborted ? `${provider} did not answer within ${SEARCH_TIMEOUT_MS / 1000} s` : `${provider} could not be reached`);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new SearchError(`${provider} answered HTTP ${res.status}`);
  }
  try {
    const body = await readLimited(res, SEARCH_MAX_BYTES, () => new SearchError(`${provider} sent too large an answer`));
    return JSON.parse(body.toString('utf8'));
  } catch (err) {
    if (err instanceof SearchError) throw err;
    throw new SearchError(timeout.aborted ? `${provider} did not answer within ${SEARCH_TIMEOUT_MS / 1000} s` : `${provider} sent an answer that is not JSON`);
  }
}

/** A string field of an untyped JSON object, else ''. */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The array at `key` of an untyped JSON object, else []. */
export function list(value: unknown, key: string): unknown[] {
  const found = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return Array.isArray(found) ? found : [];
}

export function field(value: unknown, key: string): unknown {
  return value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}
