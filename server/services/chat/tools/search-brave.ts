import type { SearchConfig } from '../../../config';
import { fetchSearchJson, field, list, text, type SearchRequest, type SearchResult } from './search-http';

export const BRAVE_URL = 'https://api.search.brave.com/res/v1/web/search';

/**
 * Brave Search: GET https://api.search.brave.com/res/v1/web/search?q=...&count=N with the key in the
 * X-Subscription-Token header. Answer: { web: { results: [{ title, url, description }] } }; descriptions may hold
 * <strong> highlights, which are removed.
 */
export async function searchBrave(config: SearchConfig, request: SearchRequest): Promise<SearchResult[]> {
  const url = new URL(config.url ?? BRAVE_URL);
  url.searchParams.set('q', request.query);
  url.searchParams.set('count', String(request.count));
  const answer = await fetchSearchJson(
    'Brave Search',
    url.href,
    { headers: { accept: 'application/json', 'x-subscription-token': config.apiKey ?? '' } },
    request.signal,
  );
  return list(field(answer, 'web'), 'results').map((r) => ({
    title: withoutTags(text(field(r, 'title'))),
    url: text(field(r, 'url')),
    snippet: withoutTags(text(field(r, 'description'))),
  }));
}

function withoutTags(value: string): string {
  return value.replace(/<\/?[a-z][^>]*>/gi, '');
}
