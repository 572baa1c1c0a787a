import type { SearchConfig } from '../../../config';
import { fetchSearchJson, field, list, text, type SearchRequest, type SearchResult } from './search-http';

export const TAVILY_URL = 'https://api.tavily.com/search';

/**
 * Tavily: POST https://api.tavily.com/search with `Authorization: Bearer tvly-...` and a JSON body
 * { query, max_results, search_depth }. Answer: { results: [{ title, url, content, score }] }.
 */
export async function searchTavily(config: SearchConfig, request: SearchRequest): Promise<SearchResult[]> {
  const answer = await fetchSearchJson(
    'Tavily',
    config.url ?? TAVILY_URL,
    {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${config.apiKey ?? ''}` },
      body: JSON.stringify({ query: request.query, max_results: request.count, search_depth: 'basic' }),
    },
    request.signal,
  );
  return list(answer, 'results').map((r) => ({ title: text(field(r, 'title')), url: text(field(r, 'url')), snippet: text(field(r, 'content')) }));
}
