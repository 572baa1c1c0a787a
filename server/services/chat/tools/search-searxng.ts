import type { SearchConfig } from '../../../config';
import { fetchSearchJson, field, list, text, type SearchRequest, type SearchResult } from './search-http';

/**
 * SearXNG: GET {instance}/search?q=...&format=json (the instance must allow the json format in its settings).
 * Answer: { results: [{ url, title, content, ... }] }. It returns a page of ~20 results; no count parameter.
 */
export async function searchSearxng(config: SearchConfig, request: SearchRequest): Promise<SearchResult[]> {
  const url = new URL('search', `${(config.url ?? '').replace(/\/+$/, '')}/`);
  url.searchParams.set('q', request.query);
  url.searchParams.set('format', 'json');
  const headers: Record<string, string> = { accept: 'application/json' };
  // An instance behind an authenticating proxy may want a key; a plain instance needs none.
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  const answer = await fetchSearchJson('SearXNG', url.href, { headers }, request.signal);
  return list(answer, 'results').map((r) => ({ title: text(field(r, 'title')), url: text(field(r, 'url')), snippet: text(field(r, 'content')) }));
}
